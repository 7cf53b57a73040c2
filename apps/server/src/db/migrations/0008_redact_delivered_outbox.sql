-- Emails already out of our hands keep no body: their one-time links (verification, reset, invitation,
-- unsubscribe) must not outlive delivery in the database (docs/decisions/0022). New rows are redacted
-- by the outbox worker as they are sent, logged or given up.
UPDATE "outbox"
SET "subject" = '', "text_body" = '', "html_body" = '', "list_unsubscribe" = NULL, "reply_to" = NULL
WHERE "status" IN ('sent', 'logged', 'failed');
