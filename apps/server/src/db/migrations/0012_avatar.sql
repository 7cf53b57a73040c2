ALTER TABLE "users" ADD COLUMN "avatar_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "users_avatar_id_key" ON "users" USING btree ("avatar_id");