package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/records"
)

// needConversation validates the ids of a history method.
func needConversation(op, userID, convID string) error {
	return records.NeedConversation("sqlite", op, userID, convID)
}

// AppendMessage creates the conversation if needed; an ended one is EINVALID,
// so the caller starts a new conversation id. A zero m.Time is set to Now.
func (s *Store) AppendMessage(ctx context.Context, userID, convID string, m nadine.Message) (nadine.Conversation, error) {
	if err := needConversation("append message", userID, convID); err != nil {
		return nadine.Conversation{}, err
	}
	now := s.now()
	if m.Time <= 0 {
		m.Time = now.Unix()
	}
	var c nadine.Conversation
	err := s.write(ctx, func(tx *sql.Tx) error {
		var err error
		c, err = conversation(ctx, tx, userID, convID)
		switch {
		case nadine.ErrorCode(err) == nadine.ENOTFOUND:
			c = nadine.Conversation{UserID: userID, ID: convID, Started: fromMicros(toMicros(now))}
			if _, err := tx.ExecContext(ctx, `INSERT INTO conversations
				(user_id, conversation_id, count, chunks_stored, started_us, updated_us, ended)
				VALUES (?, ?, 0, 0, ?, ?, 0)`, userID, convID, toMicros(now), toMicros(now)); err != nil {
				return err
			}
		case err != nil:
			return err
		case c.Ended:
			return nadine.Errorf(nadine.EINVALID, "sqlite: append message: conversation %q of user %q has ended", convID, userID)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO messages
			(user_id, conversation_id, position, role, content, name, time)
			VALUES (?, ?, ?, ?, ?, ?, ?)`,
			userID, convID, c.Count, string(m.Role), m.Content, m.Name, m.Time); err != nil {
			return err
		}
		c.Count++
		c.Updated = fromMicros(toMicros(now))
		_, err = tx.ExecContext(ctx, `UPDATE conversations SET count = ?, updated_us = ?
			WHERE user_id = ? AND conversation_id = ?`, c.Count, toMicros(now), userID, convID)
		return err
	})
	if err != nil {
		return nadine.Conversation{}, s.wrap("append message", err)
	}
	return c, nil
}

// querier is what *sql.DB and *sql.Tx share.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// conversation reads a conversation's state, or returns ENOTFOUND.
func conversation(ctx context.Context, q querier, userID, convID string) (nadine.Conversation, error) {
	c := nadine.Conversation{UserID: userID, ID: convID}
	var started, updated int64
	err := q.QueryRowContext(ctx, `SELECT count, chunks_stored, started_us, updated_us, ended
		FROM conversations WHERE user_id = ? AND conversation_id = ?`, userID, convID).
		Scan(&c.Count, &c.ChunksStored, &started, &updated, &c.Ended)
	if errors.Is(err, sql.ErrNoRows) {
		return nadine.Conversation{}, nadine.Errorf(nadine.ENOTFOUND, "sqlite: no conversation %q of user %q", convID, userID)
	}
	if err != nil {
		return nadine.Conversation{}, err
	}
	c.Started, c.Updated = fromMicros(started), fromMicros(updated)
	return c, nil
}

// Conversation returns a conversation's state, or ENOTFOUND.
func (s *Store) Conversation(ctx context.Context, userID, convID string) (nadine.Conversation, error) {
	if err := needConversation("conversation", userID, convID); err != nil {
		return nadine.Conversation{}, err
	}
	c, err := conversation(ctx, s.r, userID, convID)
	return c, s.wrap("conversation", err)
}

// AmendMessage replaces a message's content.
func (s *Store) AmendMessage(ctx context.Context, userID, convID string, position int, content string) error {
	if err := needConversation("amend message", userID, convID); err != nil {
		return err
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE messages SET content = ?
			WHERE user_id = ? AND conversation_id = ? AND position = ?`, content, userID, convID, position)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			if err == nil {
				err = nadine.Errorf(nadine.ENOTFOUND, "sqlite: no message %d in conversation %q of user %q", position, convID, userID)
			}
			return err
		}
		return nil
	})
	return s.wrap("amend message", err)
}

// RecentMessages returns all messages when n <= 0, oldest first.
func (s *Store) RecentMessages(ctx context.Context, userID, convID string, n int) ([]nadine.Message, error) {
	if err := needConversation("recent messages", userID, convID); err != nil {
		return nil, err
	}
	limit := int64(n)
	if n <= 0 {
		limit = -1 // no limit
	}
	rows, err := s.r.QueryContext(ctx, `SELECT role, content, name, time FROM (
		SELECT position, role, content, name, time FROM messages
		WHERE user_id = ? AND conversation_id = ? ORDER BY position DESC LIMIT ?)
		ORDER BY position`, userID, convID, limit)
	if err != nil {
		return nil, s.wrap("recent messages", err)
	}
	ms, err := scanMessages(rows)
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
	rows, err := s.r.QueryContext(ctx, `SELECT role, content, name, time FROM messages
		WHERE user_id = ? AND conversation_id = ? AND position >= ? AND position < ?
		ORDER BY position`, userID, convID, from, to)
	if err != nil {
		return nil, s.wrap("message range", err)
	}
	ms, err := scanMessages(rows)
	return ms, s.wrap("message range", err)
}

func scanMessages(rows *sql.Rows) ([]nadine.Message, error) {
	defer rows.Close()
	var ms []nadine.Message
	for rows.Next() {
		var m nadine.Message
		var role string
		if err := rows.Scan(&role, &m.Content, &m.Name, &m.Time); err != nil {
			return nil, err
		}
		m.Role = nadine.Role(role)
		ms = append(ms, m)
	}
	return ms, rows.Err()
}

// OpenConversations crosses users: it is for recovery at start.
func (s *Store) OpenConversations(ctx context.Context) ([]nadine.Conversation, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT user_id, conversation_id, count, chunks_stored,
		started_us, updated_us FROM conversations WHERE ended = 0 ORDER BY user_id, conversation_id`)
	if err != nil {
		return nil, s.wrap("open conversations", err)
	}
	defer rows.Close()
	var cs []nadine.Conversation
	for rows.Next() {
		var c nadine.Conversation
		var started, updated int64
		if err := rows.Scan(&c.UserID, &c.ID, &c.Count, &c.ChunksStored, &started, &updated); err != nil {
			return nil, s.wrap("open conversations", err)
		}
		c.Started, c.Updated = fromMicros(started), fromMicros(updated)
		cs = append(cs, c)
	}
	return cs, s.wrap("open conversations", rows.Err())
}

// StoreChunk is idempotent: a chunk below ChunksStored was stored before and
// nothing happens, so a retried turn stores it once.
func (s *Store) StoreChunk(ctx context.Context, userID, convID string, index int, m nadine.Memory) error {
	if err := needConversation("store chunk", userID, convID); err != nil {
		return err
	}
	if index < 0 {
		return nadine.Errorf(nadine.EINVALID, "sqlite: store chunk: negative index %d", index)
	}
	if m.ConversationID == "" {
		m.ConversationID = convID
	}
	row, err := s.memoryRow("store chunk", userID, m)
	if err != nil {
		return err
	}
	var ids []int64
	mark := s.cache.mark()
	err = s.write(ctx, func(tx *sql.Tx) error {
		c, err := conversation(ctx, tx, userID, convID)
		if err != nil {
			return err
		}
		if c.ChunksStored > index {
			return nil
		}
		if c.Ended {
			return nadine.Errorf(nadine.EINVALID, "sqlite: store chunk: conversation %q of user %q has ended", convID, userID)
		}
		if ids, err = insertMemories(ctx, tx, []memoryRow{row}); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE conversations SET chunks_stored = ?
			WHERE user_id = ? AND conversation_id = ?`, index+1, userID, convID)
		return err
	})
	if ids != nil {
		s.cacheAdded(mark, []memoryRow{row}, ids, err)
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
	var ids []int64
	mark := s.cache.mark()
	err := s.write(ctx, func(tx *sql.Tx) error {
		c, err := conversation(ctx, tx, userID, convID)
		if err != nil {
			return err
		}
		if c.Ended {
			return nil
		}
		if final != nil {
			var err error
			if ids, err = insertMemories(ctx, tx, []memoryRow{row}); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM messages WHERE user_id = ? AND conversation_id = ?`,
			userID, convID); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE conversations SET ended = 1, updated_us = ?
			WHERE user_id = ? AND conversation_id = ?`, toMicros(now), userID, convID)
		return err
	})
	if ids != nil {
		s.cacheAdded(mark, []memoryRow{row}, ids, err)
	}
	return s.wrap("end conversation", err)
}
