-- Issue 29 (docs/decisions/0064): a witness key's label, what the device is to its owner on /profile ("Chrome on
-- Linux", from the registering request's User-Agent); null for keys registered before.
ALTER TABLE "witness_keys" ADD COLUMN "label" text;