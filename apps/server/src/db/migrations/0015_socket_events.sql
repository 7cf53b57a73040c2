CREATE TABLE "socket_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"room" text NOT NULL,
	"event" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "socket_events_created_at_idx" ON "socket_events" USING btree ("created_at");