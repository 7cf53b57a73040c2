-- Issue 23 (docs/decisions/0027): why a member is no longer in a circle (left, or removed by the admin),
-- and the reason an automatic transfer records in its block (encoding v2). Existing blocks keep NULL:
-- they are v1 and their hashes do not cover a reason.
CREATE TABLE "circle_departures" (
	"circle_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"departed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "circle_departures_circle_id_user_id_pk" PRIMARY KEY("circle_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "blocks" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "circle_departures" ADD CONSTRAINT "circle_departures_circle_id_circles_id_fk" FOREIGN KEY ("circle_id") REFERENCES "public"."circles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "circle_departures" ADD CONSTRAINT "circle_departures_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "circle_departures_user_idx" ON "circle_departures" USING btree ("user_id");