ALTER TABLE queue_jobs ADD COLUMN IF NOT EXISTS org_id uuid;
