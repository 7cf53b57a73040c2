CREATE TABLE "blocks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"circle_id" uuid NOT NULL,
	"height" integer NOT NULL,
	"hash" text NOT NULL,
	"prev_hash" text NOT NULL,
	"version" integer NOT NULL,
	"kind" text NOT NULL,
	"first" boolean NOT NULL,
	"time" text NOT NULL,
	"circle_name" text NOT NULL,
	"handover_id" uuid,
	"item_id" uuid NOT NULL,
	"item_name" text NOT NULL,
	"from_id" uuid NOT NULL,
	"from_name" text NOT NULL,
	"to_id" uuid NOT NULL,
	"to_name" text NOT NULL,
	"ownership" text NOT NULL,
	"requester_comment_commitment" text,
	"receiver_comment_commitment" text,
	"secret_message_commitment" text
);
--> statement-breakpoint
CREATE TABLE "handovers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"item_id" uuid NOT NULL,
	"circle_id" uuid NOT NULL,
	"sender_id" uuid NOT NULL,
	"receiver_id" uuid NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"complete_ownership" boolean DEFAULT false NOT NULL,
	"requester_comment" text,
	"secret_message" text,
	"receiver_comment" text,
	"requester_comment_salt" text NOT NULL,
	"secret_message_salt" text NOT NULL,
	"receiver_comment_salt" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "ledger_heads" (
	"circle_id" uuid PRIMARY KEY NOT NULL,
	"size" integer DEFAULT 0 NOT NULL,
	"head_hash" text DEFAULT '0000000000000000000000000000000000000000000000000000000000000000' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "handovers" ADD CONSTRAINT "handovers_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handovers" ADD CONSTRAINT "handovers_circle_id_circles_id_fk" FOREIGN KEY ("circle_id") REFERENCES "public"."circles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handovers" ADD CONSTRAINT "handovers_sender_id_users_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handovers" ADD CONSTRAINT "handovers_receiver_id_users_id_fk" FOREIGN KEY ("receiver_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "blocks_circle_height" ON "blocks" USING btree ("circle_id","height");--> statement-breakpoint
CREATE UNIQUE INDEX "blocks_circle_prev_hash" ON "blocks" USING btree ("circle_id","prev_hash");--> statement-breakpoint
CREATE INDEX "blocks_item_idx" ON "blocks" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "blocks_handover_idx" ON "blocks" USING btree ("handover_id");--> statement-breakpoint
CREATE UNIQUE INDEX "handovers_one_pending_per_item" ON "handovers" USING btree ("item_id") WHERE "handovers"."status" = 'PENDING';--> statement-breakpoint
CREATE INDEX "handovers_item_idx" ON "handovers" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "handovers_sender_idx" ON "handovers" USING btree ("sender_id");--> statement-breakpoint
CREATE INDEX "handovers_receiver_idx" ON "handovers" USING btree ("receiver_id");--> statement-breakpoint
CREATE FUNCTION "blocks_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'ledger blocks are append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "blocks_append_only" BEFORE UPDATE OR DELETE ON "blocks" FOR EACH ROW EXECUTE FUNCTION "blocks_append_only"();
