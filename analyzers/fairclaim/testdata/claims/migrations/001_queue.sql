-- The queue's tables, read by fairclaim from the module's .sql files.
CREATE TABLE IF NOT EXISTS public.queue_jobs (
    id bigserial PRIMARY KEY,
    kind text NOT NULL,
    payload jsonb,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE river_job (
    id bigserial PRIMARY KEY,
    state text NOT NULL,
    queue text NOT NULL,
    priority smallint NOT NULL DEFAULT 1,
    scheduled_at timestamptz NOT NULL DEFAULT now()
);
