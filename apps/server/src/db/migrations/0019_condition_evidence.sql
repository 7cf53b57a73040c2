-- Issue 28, condition evidence (docs/decisions/0057): photos at each end of a handover (uploaded, then
-- attached to one side; the SHA-256 of the stored bytes is what a v5 block commits to), each side's note
-- with the salt of its commitment, the receiver's 'as described', and the evidence a v5 block hashed.
CREATE TABLE "condition_photos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"uploaded_by" uuid,
	"handover_id" uuid,
	"side" text,
	"position" integer,
	"attached_at" timestamp with time zone,
	"image_id" text NOT NULL,
	"image_type" text NOT NULL,
	"sha256" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "condition_photos_image_id_unique" UNIQUE("image_id")
);
--> statement-breakpoint
ALTER TABLE "blocks" ADD COLUMN "evidence" jsonb;--> statement-breakpoint
ALTER TABLE "handovers" ADD COLUMN "sender_note" text;--> statement-breakpoint
ALTER TABLE "handovers" ADD COLUMN "sender_note_salt" text;--> statement-breakpoint
ALTER TABLE "handovers" ADD COLUMN "receiver_note" text;--> statement-breakpoint
ALTER TABLE "handovers" ADD COLUMN "receiver_note_salt" text;--> statement-breakpoint
ALTER TABLE "handovers" ADD COLUMN "receiver_as_described" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "condition_photos" ADD CONSTRAINT "condition_photos_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "condition_photos" ADD CONSTRAINT "condition_photos_handover_id_handovers_id_fk" FOREIGN KEY ("handover_id") REFERENCES "public"."handovers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "condition_photos_place" ON "condition_photos" USING btree ("handover_id","side","position");--> statement-breakpoint
CREATE INDEX "condition_photos_uploader_idx" ON "condition_photos" USING btree ("uploaded_by");