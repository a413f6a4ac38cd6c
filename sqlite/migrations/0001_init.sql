-- Schema 1: everything one robot persists.
-- Times named *_us are Unix microseconds (0 = unknown); message times are
-- Unix seconds as the message carries them. Vectors are float32
-- little-endian BLOBs of dims values, made by the named embedder.

-- The user id → name map (face_stored), with or without a profile.
CREATE TABLE users (
	user_id   TEXT PRIMARY KEY,
	user_name TEXT NOT NULL DEFAULT ''
);

CREATE TABLE profiles (
	user_id          TEXT PRIMARY KEY,
	user_name        TEXT NOT NULL DEFAULT '',
	current_company  TEXT NOT NULL DEFAULT '',
	current_position TEXT NOT NULL DEFAULT '',
	location         TEXT NOT NULL DEFAULT '',
	hobbies          TEXT NOT NULL DEFAULT '[]', -- JSON array of strings
	interests        TEXT NOT NULL DEFAULT '[]', -- JSON array of strings
	face_image_path  TEXT NOT NULL DEFAULT '',
	last_updated_us  INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE conversations (
	user_id         TEXT NOT NULL,
	conversation_id TEXT NOT NULL,
	count           INTEGER NOT NULL DEFAULT 0,
	chunks_stored   INTEGER NOT NULL DEFAULT 0,
	started_us      INTEGER NOT NULL DEFAULT 0,
	updated_us      INTEGER NOT NULL DEFAULT 0,
	ended           INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (user_id, conversation_id)
);

CREATE INDEX conversations_open ON conversations (user_id, conversation_id) WHERE ended = 0;

CREATE TABLE messages (
	user_id         TEXT NOT NULL,
	conversation_id TEXT NOT NULL,
	position        INTEGER NOT NULL,
	role            TEXT NOT NULL,
	content         TEXT NOT NULL,
	name            TEXT NOT NULL DEFAULT '',
	time            INTEGER NOT NULL DEFAULT 0, -- Unix seconds
	PRIMARY KEY (user_id, conversation_id, position),
	FOREIGN KEY (user_id, conversation_id)
		REFERENCES conversations (user_id, conversation_id) ON DELETE CASCADE
) WITHOUT ROWID;

-- Long-term memories of one user each.
CREATE TABLE memories (
	id              INTEGER PRIMARY KEY AUTOINCREMENT,
	user_id         TEXT NOT NULL,
	type            TEXT NOT NULL CHECK (type IN ('conversation', 'episode', 'fact')),
	text            TEXT NOT NULL,
	conversation_id TEXT NOT NULL DEFAULT '',
	time_us         INTEGER NOT NULL DEFAULT 0,
	metadata        TEXT NOT NULL DEFAULT '{}', -- JSON object of strings
	embedder        TEXT NOT NULL DEFAULT '',
	dims            INTEGER NOT NULL DEFAULT 0,
	embedding       BLOB
);

CREATE INDEX memories_user ON memories (user_id, type);

-- The knowledge base, shared by all users.
CREATE TABLE knowledge (
	id        INTEGER PRIMARY KEY AUTOINCREMENT,
	source    TEXT NOT NULL DEFAULT '',
	title     TEXT NOT NULL DEFAULT '',
	text      TEXT NOT NULL,
	metadata  TEXT NOT NULL DEFAULT '{}',
	embedder  TEXT NOT NULL DEFAULT '',
	dims      INTEGER NOT NULL DEFAULT 0,
	embedding BLOB
);

CREATE TABLE scenes (
	user_id               TEXT NOT NULL,
	scene_id              TEXT NOT NULL,
	time_us               INTEGER NOT NULL DEFAULT 0,
	image_path            TEXT NOT NULL DEFAULT '',
	memorability          REAL NOT NULL DEFAULT 0,
	emotion_probs         TEXT NOT NULL DEFAULT '{}', -- JSON object of numbers
	description           TEXT NOT NULL DEFAULT '',
	image_embedding       BLOB,
	description_embedding BLOB,
	description_embedder  TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (user_id, scene_id)
);

-- Graph checkpoints; keys of personal state start with "<user_id>/".
CREATE TABLE checkpoints (
	key        TEXT PRIMARY KEY,
	data       BLOB,
	updated_us INTEGER NOT NULL DEFAULT 0
);
