package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/records"
)

// needConversation validates the ids of a history method.
func needConversation(op, userID, convID string) error {
	return records.NeedConversation("postgres", op, userID, convID)
}

// AppendMessage holds the conversation's row lock, so appends from several
// processes are serialized; an ended conversation is EINVALID.
func (s *Store) AppendMessage(ctx context.Context, userID, convID string, m nadine.Message) (nadine.Conversation, error) {
	if err := needConversation("append message", userID, convID); err != nil {
		return nadine.Conversation{}, err
	}
	now := s.now().Truncate(time.Microsecond)
	if m.Time <= 0 {
		m.Time = now.Unix()
	}
	var c nadine.Conversation
	err := s.tx(ctx, func(tx pgx.Tx) error {
		if _, err := exec(ctx, tx, `INSERT INTO conversations (user_id, conversation_id, started, updated)
			VALUES ($1, $2, $3, $3) ON CONFLICT DO NOTHING`, userID, convID, now); err != nil {
			return err
		}
		var err error
		if c, err = conversation(ctx, tx, userID, convID, true); err != nil {
			return err
		}
		if c.Ended {
			return nadine.Errorf(nadine.EINVALID, "postgres: append message: conversation %q of user %q has ended", convID, userID)
		}
		if _, err := exec(ctx, tx, `INSERT INTO messages
			(user_id, conversation_id, position, role, content, name, time)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`,
			userID, convID, c.Count, string(m.Role), m.Content, m.Name, m.Time); err != nil {
			return err
		}
		c.Count++
		c.Updated = utc(now)
		_, err = exec(ctx, tx, `UPDATE conversations SET count = $1, updated = $2
			WHERE user_id = $3 AND conversation_id = $4`, c.Count, now, userID, convID)
		return err
	})
	if err != nil {
		return nadine.Conversation{}, s.wrap("append message", err)
	}
	return c, nil
}

// AmendMessage replaces a message's content.
func (s *Store) AmendMessage(ctx context.Context, userID, convID string, position int, content string) error {
	if err := needConversation("amend message", userID, convID); err != nil {
		return err
	}
	err := s.tx(ctx, func(tx pgx.Tx) error {
		tag, err := exec(ctx, tx, `UPDATE messages SET content = $1
			WHERE user_id = $2 AND conversation_id = $3 AND position = $4`, content, userID, convID, position)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return nadine.Errorf(nadine.ENOTFOUND, "postgres: no message %d in conversation %q of user %q", position, convID, userID)
		}
		return nil
	})
	return s.wrap("amend message", err)
}

// conversation locks the row (FOR UPDATE) when lock is set.
func conversation(ctx context.Context, q db, userID, convID string, lock bool) (nadine.Conversation, error) {
	sql := `SELECT count, chunks_stored, started, updated, ended
		FROM conversations WHERE user_id = $1 AND conversation_id = $2`
	if lock {
		sql += ` FOR UPDATE`
	}
	c := nadine.Conversation{UserID: userID, ID: convID}
	err := queryRow(ctx, q, sql, userID, convID).Scan(&c.Count, &c.ChunksStored, &c.Started, &c.Updated, &c.Ended)
	if errors.Is(err, pgx.ErrNoRows) {
		return nadine.Conversation{}, nadine.Errorf(nadine.ENOTFOUND, "postgres: no conversation %q of user %q", convID, userID)
	}
	if err != nil {
		return nadine.Conversation{}, err
	}
	c.Started, c.Updated = utc(c.Started), utc(c.Updated)
	return c, nil
}

// Conversation returns a conversation's state, or ENOTFOUND.
func (s *Store) Conversation(ctx context.Context, userID, convID string) (nadine.Conversation, error) {
	if err := needConversation("conversation", userID, convID); err != nil {
		return nadine.Conversation{}, err
	}
	c, err := conversation(ctx, s.pool, userID, convID, false)
	return c, s.wrap("conversation", err)
}

// RecentMessages returns all messages when n <= 0, oldest first.
func (s *Store) RecentMessages(ctx context.Context, userID, convID string, n int) ([]nadine.Message, error) {
	if err := needConversation("recent messages", userID, convID); err != nil {
		return nil, err
	}
	var limit *int64 // NULL: LIMIT ALL
	if n > 0 {
		l := int64(n)
		limit = &l
	}
	rows, err := query(ctx, s.pool, `SELECT role, content, name, time FROM (
		SELECT position, role, content, name, time FROM messages
		WHERE user_id = $1 AND conversation_id = $2 ORDER BY position DESC LIMIT $3) AS last
		ORDER BY position`, userID, convID, limit)
	if err != nil {
		return nil, s.wrap("recent messages", err)
	}
	ms, err := collectMessages(rows)
	return ms, s.wrap("recent messages", err)
}

// MessageRange leaves out positions outside the conversation.
func (s *Store) MessageRange(ctx context.Context, userID, convID string, from, to int) ([]nadine.Message, error) {
	if err := needConversation("message range", userID, convID); err != nil {
		return nil, err
	}
	if to <= from {
		return nil, nil
	}
	rows, err := query(ctx, s.pool, `SELECT role, content, name, time FROM messages
		WHERE user_id = $1 AND conversation_id = $2 AND position >= $3 AND position < $4
		ORDER BY position`, userID, convID, from, to)
	if err != nil {
		return nil, s.wrap("message range", err)
	}
	ms, err := collectMessages(rows)
	return ms, s.wrap("message range", err)
}

func collectMessages(rows pgx.Rows) ([]nadine.Message, error) {
	ms, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (nadine.Message, error) {
		var m nadine.Message
		var role string
		err := r.Scan(&role, &m.Content, &m.Name, &m.Time)
		m.Role = nadine.Role(role)
		return m, err
	})
	if len(ms) == 0 {
		ms = nil
	}
	return ms, err
}

// OpenConversations crosses users: it is for recovery at start.
func (s *Store) OpenConversations(ctx context.Context) ([]nadine.Conversation, error) {
	rows, err := query(ctx, s.pool, `SELECT user_id, conversation_id, count, chunks_stored, started, updated
		FROM conversations WHERE NOT ended ORDER BY user_id COLLATE "C", conversation_id COLLATE "C"`)
	if err != nil {
		return nil, s.wrap("open conversations", err)
	}
	cs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (nadine.Conversation, error) {
		var c nadine.Conversation
		err := r.Scan(&c.UserID, &c.ID, &c.Count, &c.ChunksStored, &c.Started, &c.Updated)
		c.Started, c.Updated = utc(c.Started), utc(c.Updated)
		return c, err
	})
	return cs, s.wrap("open conversations", err)
}

// StoreChunk is idempotent under the conversation's row lock: a chunk below
// ChunksStored was stored before and nothing happens.
func (s *Store) StoreChunk(ctx context.Context, userID, convID string, index int, m nadine.Memory) error {
	if err := needConversation("store chunk", userID, convID); err != nil {
		return err
	}
	if index < 0 {
		return nadine.Errorf(nadine.EINVALID, "postgres: store chunk: negative index %d", index)
	}
	if m.ConversationID == "" {
		m.ConversationID = convID
	}
	row, err := s.memoryRow("store chunk", userID, m)
	if err != nil {
		return err
	}
	var seen newIndexes
	err = s.tx(ctx, func(tx pgx.Tx) error {
		seen = seen[:0]
		c, err := conversation(ctx, tx, userID, convID, true)
		if err != nil {
			return err
		}
		if c.ChunksStored > index {
			return nil
		}
		if c.Ended {
			return nadine.Errorf(nadine.EINVALID, "postgres: store chunk: conversation %q of user %q has ended", convID, userID)
		}
		if _, err := s.insertMemory(ctx, tx, row, &seen); err != nil {
			return err
		}
		_, err = exec(ctx, tx, `UPDATE conversations SET chunks_stored = $1
			WHERE user_id = $2 AND conversation_id = $3`, index+1, userID, convID)
		return err
	})
	if err == nil {
		s.remember(seen)
	}
	return s.wrap("store chunk", err)
}

// EndConversation stores final and deletes the messages in one transaction;
// ending an ended conversation does nothing.
func (s *Store) EndConversation(ctx context.Context, userID, convID string, final *nadine.Memory) error {
	if err := needConversation("end conversation", userID, convID); err != nil {
		return err
	}
	var row memoryRow
	if final != nil {
		m := *final
		if m.ConversationID == "" {
			m.ConversationID = convID
		}
		var err error
		if row, err = s.memoryRow("end conversation", userID, m); err != nil {
			return err
		}
	}
	now := s.now()
	var seen newIndexes
	err := s.tx(ctx, func(tx pgx.Tx) error {
		seen = seen[:0]
		c, err := conversation(ctx, tx, userID, convID, true)
		if err != nil {
			return err
		}
		if c.Ended {
			return nil
		}
		if final != nil {
			if _, err := s.insertMemory(ctx, tx, row, &seen); err != nil {
				return err
			}
		}
		if _, err := exec(ctx, tx, `DELETE FROM messages WHERE user_id = $1 AND conversation_id = $2`,
			userID, convID); err != nil {
			return err
		}
		_, err = exec(ctx, tx, `UPDATE conversations SET ended = true, updated = $1
			WHERE user_id = $2 AND conversation_id = $3`, now, userID, convID)
		return err
	})
	if err == nil {
		s.remember(seen)
	}
	return s.wrap("end conversation", err)
}
