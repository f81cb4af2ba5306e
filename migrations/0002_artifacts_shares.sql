CREATE TABLE `artifact_sources` (
	`tenant_id` text NOT NULL,
	`artifact_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`path` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `artifact_sources_pk` ON `artifact_sources` (`tenant_id`,`artifact_id`,`workspace_id`,`path`);--> statement-breakpoint
CREATE TABLE `artifacts` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`digest` text NOT NULL,
	`files` text NOT NULL,
	`file_count` integer NOT NULL,
	`bytes` integer NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `artifacts_tenant_digest` ON `artifacts` (`tenant_id`,`digest`);--> statement-breakpoint
CREATE INDEX `artifacts_tenant_created` ON `artifacts` (`tenant_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `shares` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`path` text NOT NULL,
	`key_id` text NOT NULL,
	`path_prefix` text,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`revoked_at` text
);
--> statement-breakpoint
CREATE INDEX `shares_tenant_workspace` ON `shares` (`tenant_id`,`workspace_id`,`id`);