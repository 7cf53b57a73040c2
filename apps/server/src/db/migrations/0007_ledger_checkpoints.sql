CREATE TABLE "ledger_checkpoints" (
	"circle_id" uuid NOT NULL,
	"size" integer NOT NULL,
	"note" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_checkpoints_circle_id_size_pk" PRIMARY KEY("circle_id","size")
);
--> statement-breakpoint
ALTER TABLE "ledger_heads" ADD COLUMN "frontier" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_heads" ADD COLUMN "checkpoint" text;