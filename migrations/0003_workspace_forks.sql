ALTER TABLE `workspaces` ADD `storage_bytes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `workspaces` ADD `forked_from` text;--> statement-breakpoint
ALTER TABLE `workspaces` ADD `forked_revision` integer;