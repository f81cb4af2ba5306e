CREATE TABLE `invoices` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`period_start` text NOT NULL,
	`period_end` text NOT NULL,
	`plan` text NOT NULL,
	`lines` text NOT NULL,
	`total_micros` integer NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_tenant_period` ON `invoices` (`tenant_id`,`period_start`);--> statement-breakpoint
CREATE TABLE `rollup_batches` (
	`tenant_id` text NOT NULL,
	`batch_id` text NOT NULL,
	`applied_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `rollup_batches_pk` ON `rollup_batches` (`tenant_id`,`batch_id`);--> statement-breakpoint
CREATE TABLE `signing_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`secret` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `usage_rollups` (
	`tenant_id` text NOT NULL,
	`meter` text NOT NULL,
	`workspace_id` text DEFAULT '' NOT NULL,
	`key_id` text DEFAULT '' NOT NULL,
	`hour` text NOT NULL,
	`quantity` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `usage_rollups_pk` ON `usage_rollups` (`tenant_id`,`hour`,`meter`,`workspace_id`,`key_id`);