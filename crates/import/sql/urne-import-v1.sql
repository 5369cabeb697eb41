-- urne-import's schema, version 1 (crates/import/README.md). Created by urne-import itself, in
-- the transaction of the first import into a database; a database whose schema_version is
-- another is refused, never altered. Production reads these tables; only urne-import writes them.

CREATE SCHEMA urne;

-- The schema's version: one row.
CREATE TABLE urne.schema_version (
    version integer NOT NULL PRIMARY KEY CHECK (version = 1)
);
INSERT INTO urne.schema_version (version) VALUES (1);

-- One row per import that changed something (an import that changes nothing adds no row).
-- checkpoint_note: the latest signed audit checkpoint of the outputs imported; the next import
-- requires its outputs' history to pass through it (one linear history across imports).
CREATE TABLE urne.imports (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    imported_at timestamptz NOT NULL DEFAULT now(),
    medium text NOT NULL,
    audit_key_id text NOT NULL,
    result_key_id text NOT NULL,
    checkpoint_size bigint NOT NULL,
    checkpoint_root text NOT NULL,
    checkpoint_note text NOT NULL
);

-- Every attempt of a day's draw published. status 'counts': the day's result (payable);
-- 'void': cancelled by a void notice or a later attempt (never pay it).
CREATE TABLE urne.draws (
    operation text NOT NULL,
    day date NOT NULL,
    attempt integer NOT NULL CHECK (attempt >= 1),
    status text NOT NULL CHECK (status IN ('counts', 'void')),
    -- SHA-256 of everything below as imported (crates/import/src/db.rs, `draw_digest`): another
    -- import of the same attempt must bring the same, or it is a fork.
    digest text NOT NULL,
    export_sha256 text NOT NULL,
    rules_sha256 text NOT NULL,
    commitment_root text NOT NULL,
    seed text NOT NULL,
    prize_cents bigint NOT NULL,
    drawn_at text NOT NULL,
    audit_checkpoint text NOT NULL,
    imported_in bigint NOT NULL REFERENCES urne.imports (id),
    voided_in bigint REFERENCES urne.imports (id),
    void_reason text,
    PRIMARY KEY (operation, day, attempt)
);

-- The winner (rank 0) and the reserves (1, 2, …) of each attempt.
CREATE TABLE urne.placed (
    operation text NOT NULL,
    day date NOT NULL,
    attempt integer NOT NULL,
    rank integer NOT NULL CHECK (rank >= 0),
    account text NOT NULL,
    pseudonym text NOT NULL,
    entries integer NOT NULL,
    PRIMARY KEY (operation, day, attempt, rank),
    FOREIGN KEY (operation, day, attempt) REFERENCES urne.draws (operation, day, attempt)
);

-- Every day of an official operation: its result (the attempt that counts), or why none.
CREATE TABLE urne.days (
    operation text NOT NULL,
    day date NOT NULL,
    status text NOT NULL CHECK (status IN ('drawn', 'voided', 'not-drawn')),
    attempt integer,
    PRIMARY KEY (operation, day),
    CHECK ((status = 'drawn') = (attempt IS NOT NULL))
);

-- Every attempt of a block committed: 'committed' (on sale, order secret), 'revealed' (seed
-- published), 'void' (never sell it).
CREATE TABLE urne.blocks (
    block text NOT NULL,
    attempt integer NOT NULL CHECK (attempt >= 1),
    status text NOT NULL CHECK (status IN ('committed', 'revealed', 'void')),
    -- SHA-256 of the signed commitment's members as parsed (`block_digest`): another import of
    -- the same attempt must bring the same commitment, or it is a fork.
    digest text NOT NULL,
    game text NOT NULL,
    price_cents bigint NOT NULL,
    block_size integer NOT NULL,
    rules_sha256 text NOT NULL,
    tickets_sha256 text NOT NULL,
    outcomes_root text NOT NULL,
    seed_commitment text NOT NULL,
    generated_at text NOT NULL,
    seed text,
    revealed_at text,
    tickets_loaded boolean NOT NULL DEFAULT false,
    imported_in bigint NOT NULL REFERENCES urne.imports (id),
    voided_in bigint REFERENCES urne.imports (id),
    void_reason text,
    PRIMARY KEY (block, attempt)
);

-- A block's production file, row for row (spec/formats.md §5.B6), loaded with COPY once its
-- bytes are checked against the commitment (tickets_sha256, outcomes root, tier counts). No
-- foreign key to urne.blocks: checking it row by row doubles the load of 800,000 rows, and
-- urne-import writes a block's rows only in the transaction that holds its block's row.
CREATE TABLE urne.tickets (
    block text NOT NULL,
    attempt integer NOT NULL,
    position integer NOT NULL CHECK (position >= 0),
    tier smallint NOT NULL,
    prize_cents bigint NOT NULL,
    offered text NOT NULL,
    grid1 text NOT NULL,
    grid2 text NOT NULL,
    grid3 text NOT NULL,
    PRIMARY KEY (block, attempt, position)
);

-- What production must act on: a result imported as payable, or a block as on sale, that a
-- later import found void. Kept until someone acknowledges it (acknowledged_at).
CREATE TABLE urne.alerts (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    import bigint NOT NULL REFERENCES urne.imports (id),
    alert text NOT NULL CHECK (alert IN ('payable-result-voided', 'block-on-sale-voided')),
    subject text NOT NULL,
    attempt integer NOT NULL,
    reason text NOT NULL,
    acknowledged_at timestamptz
);
