-- Issue 29, members' devices as witnesses (docs/decisions/0059): each device's Ed25519 witness key, the
-- cosignatures (C2SP tlog-cosignature) members' devices gave on the checkpoints the server signed, and
-- for outside witnesses (LEDGER_WITNESSES, C2SP tlog-witness) what each cosigned last and its cosignatures.
CREATE TABLE "ledger_cosignatures" (
	"circle_id" uuid NOT NULL,
	"size" integer NOT NULL,
	"witness_key_id" uuid NOT NULL,
	"signed_at" bigint NOT NULL,
	"line" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_cosignatures_circle_id_size_witness_key_id_pk" PRIMARY KEY("circle_id","size","witness_key_id")
);
--> statement-breakpoint
CREATE TABLE "ledger_witness_cosignatures" (
	"circle_id" uuid NOT NULL,
	"size" integer NOT NULL,
	"witness" text NOT NULL,
	"line" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_witness_cosignatures_circle_id_size_witness_pk" PRIMARY KEY("circle_id","size","witness")
);
--> statement-breakpoint
CREATE TABLE "ledger_witness_state" (
	"circle_id" uuid NOT NULL,
	"witness" text NOT NULL,
	"size" integer DEFAULT 0 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_witness_state_circle_id_witness_pk" PRIMARY KEY("circle_id","witness")
);
--> statement-breakpoint
CREATE TABLE "witness_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"device_id" uuid NOT NULL,
	"name" text NOT NULL,
	"public_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "witness_keys_name_unique" UNIQUE("name"),
	CONSTRAINT "witness_keys_public_key_unique" UNIQUE("public_key"),
	CONSTRAINT "witness_keys_user_device_unique" UNIQUE("user_id","device_id")
);
--> statement-breakpoint
ALTER TABLE "ledger_cosignatures" ADD CONSTRAINT "ledger_cosignatures_witness_key_id_witness_keys_id_fk" FOREIGN KEY ("witness_key_id") REFERENCES "public"."witness_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_cosignatures" ADD CONSTRAINT "ledger_cosignatures_circle_id_size_ledger_checkpoints_circle_id_size_fk" FOREIGN KEY ("circle_id","size") REFERENCES "public"."ledger_checkpoints"("circle_id","size") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_witness_cosignatures" ADD CONSTRAINT "ledger_witness_cosignatures_circle_id_size_ledger_checkpoints_circle_id_size_fk" FOREIGN KEY ("circle_id","size") REFERENCES "public"."ledger_checkpoints"("circle_id","size") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "witness_keys" ADD CONSTRAINT "witness_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_cosignatures_key_idx" ON "ledger_cosignatures" USING btree ("witness_key_id");--> statement-breakpoint
CREATE INDEX "ledger_witness_state_due_idx" ON "ledger_witness_state" USING btree ("next_attempt_at");