ALTER TABLE "webauthn_credentials" ADD COLUMN "name" text DEFAULT 'Passkey' NOT NULL;--> statement-breakpoint
ALTER TABLE "webauthn_credentials" ADD COLUMN "aaguid" text;