package sqlite

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"unsafe"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/records"
)

// The packed vector index (table memory_vectors, schema 2) holds a copy of
// every memory vector, grouped by user, embedder and dimension into blocks
// of up to blockEntries(dims) vectors stored contiguously, so that loading
// one user's vectors reads a handful of rows instead of one row per memory.
// The memories table stays the source of truth: every write that changes a
// user's memory vectors changes that user's blocks in the same transaction,
// and the migration to schema 2 builds the index from the table.
//
// A group's blocks are numbered from 0; new vectors go to the block with the
// highest number (the tail) until it is full, then to a new block. Removing
// a vector rewrites its block without it, deleting the block when it
// becomes empty; blocks are not merged.

// blockBytes bounds an insert's write cost (it rewrites a tail block) against
// a load's row count; 64 KiB measured best (docs/architecture.md#sqlite).
const blockBytes = 64 << 10

// blockEntries returns how many vectors of dims values fit in a block.
func blockEntries(dims int) int {
	return max(1, blockBytes/(4*max(dims, 1)))
}

// indexEntry is one memory vector for the index.
type indexEntry struct {
	id   int64
	kind uint8
	norm float32
	vec  []byte // dims float32 little-endian values
}

// indexBlock is a memory_vectors row with its memory_codes row, kept in step
// entry by entry so a write quantizes only the vectors it adds.
type indexBlock struct {
	userID   string
	embedder string
	dims     int
	rowid    int64
	block    int64
	ids      []byte // int64 little-endian
	kinds    []byte
	norms    []byte // float32 little-endian
	vecs     []byte // float32 little-endian, dims per entry
	bounds   []byte // float32 little-endian scale, residual and ratio per entry
	codes    []byte // int8, dims per entry
}

func (b *indexBlock) count() int { return len(b.kinds) }

func (b *indexBlock) id(i int) int64 {
	return int64(binary.LittleEndian.Uint64(b.ids[8*i:]))
}

func (b *indexBlock) add(e indexEntry) {
	b.ids = binary.LittleEndian.AppendUint64(b.ids, uint64(e.id))
	b.kinds = append(b.kinds, e.kind)
	b.norms = binary.LittleEndian.AppendUint32(b.norms, math.Float32bits(e.norm))
	b.vecs = append(b.vecs, e.vec...)
	b.bounds, b.codes = appendCode(b.bounds, b.codes, e.vec)
}

// set replaces the norm and vector of entry i.
func (b *indexBlock) set(i int, e indexEntry) {
	binary.LittleEndian.PutUint32(b.norms[4*i:], math.Float32bits(e.norm))
	copy(b.vecs[i*len(e.vec):], e.vec)
	bounds, codes := appendCode(nil, nil, e.vec)
	copy(b.bounds[12*i:], bounds)
	copy(b.codes[i*len(codes):], codes)
}

// remove deletes entry i of a block of vectors of dims values.
func (b *indexBlock) remove(i, dims int) {
	b.ids = slices.Delete(b.ids, 8*i, 8*i+8)
	b.kinds = slices.Delete(b.kinds, i, i+1)
	b.norms = slices.Delete(b.norms, 4*i, 4*i+4)
	b.vecs = slices.Delete(b.vecs, 4*dims*i, 4*dims*(i+1))
	b.bounds = slices.Delete(b.bounds, 12*i, 12*i+12)
	b.codes = slices.Delete(b.codes, dims*i, dims*(i+1))
}

// readBlock recomputes codes that are missing or out of step, which only a
// damaged file shows.
func readBlock(ctx context.Context, tx *sql.Tx, userID string, rowid int64) (*indexBlock, error) {
	b := &indexBlock{userID: userID, rowid: rowid}
	err := tx.QueryRowContext(ctx, `SELECT v.embedder, v.dims, v.block, v.ids, v.types, v.norms, v.vecs, c.bounds, c.codes
		FROM memory_vectors v LEFT JOIN memory_codes c USING (user_id, embedder, dims, block)
		WHERE v.user_id = ? AND v.rowid = ?`, userID, rowid).Scan(&b.embedder, &b.dims, &b.block, &b.ids, &b.kinds, &b.norms, &b.vecs,
		&b.bounds, &b.codes)
	if err != nil {
		return nil, fmt.Errorf("read vector block: %w", err)
	}
	if len(b.bounds) != 12*b.count() || len(b.codes) != b.dims*b.count() {
		if b.bounds, b.codes, err = encodeCodes(b.vecs, b.dims); err != nil {
			return nil, fmt.Errorf("vector block %d of user %q: %w", b.block, b.userID, err)
		}
	}
	return b, nil
}

// writeBlock stores b back, or deletes it when it is empty, with its codes.
func writeBlock(ctx context.Context, tx *sql.Tx, b *indexBlock) error {
	var err error
	if b.count() == 0 {
		_, err = tx.ExecContext(ctx, `DELETE FROM memory_vectors WHERE user_id = ? AND rowid = ?`, b.userID, b.rowid)
	} else {
		_, err = tx.ExecContext(ctx, `UPDATE memory_vectors SET count = ?, ids = ?, types = ?, norms = ?, vecs = ?
			WHERE user_id = ? AND rowid = ?`, b.count(), b.ids, b.kinds, b.norms, b.vecs, b.userID, b.rowid)
	}
	if err != nil {
		return fmt.Errorf("write vector block: %w", err)
	}
	return writeCodes(ctx, tx, b)
}

// writeCodes deletes the block's codes when b is empty.
func writeCodes(ctx context.Context, tx *sql.Tx, b *indexBlock) error {
	var err error
	if b.count() == 0 {
		_, err = tx.ExecContext(ctx, `DELETE FROM memory_codes WHERE user_id = ? AND embedder = ? AND dims = ? AND block = ?`,
			b.userID, b.embedder, b.dims, b.block)
	} else {
		_, err = tx.ExecContext(ctx, `INSERT INTO memory_codes
			(user_id, embedder, dims, block, count, ids, types, norms, bounds, codes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (user_id, embedder, dims, block) DO UPDATE SET count = excluded.count, ids = excluded.ids,
			types = excluded.types, norms = excluded.norms, bounds = excluded.bounds, codes = excluded.codes`,
			b.userID, b.embedder, b.dims, b.block, b.count(), b.ids, b.kinds, b.norms, b.bounds, b.codes)
	}
	if err != nil {
		return fmt.Errorf("write vector codes: %w", err)
	}
	return nil
}

// indexAppend adds vectors of one user, embedder and dimension to the
// group's tail block, opening new blocks as the tail fills up.
func indexAppend(ctx context.Context, tx *sql.Tx, userID, embedder string, dims int, es []indexEntry) error {
	if len(es) == 0 {
		return nil
	}
	limit := blockEntries(dims)
	var (
		tail          *indexBlock
		rowid, number int64
		count         int
	)
	err := tx.QueryRowContext(ctx, `SELECT rowid, block, count FROM memory_vectors
		WHERE user_id = ? AND embedder = ? AND dims = ? ORDER BY block DESC LIMIT 1`,
		userID, embedder, dims).Scan(&rowid, &number, &count)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		number = -1
	case err != nil:
		return fmt.Errorf("find tail vector block: %w", err)
	case count < limit:
		if tail, err = readBlock(ctx, tx, userID, rowid); err != nil {
			return err
		}
	}
	if tail != nil {
		n := min(limit-tail.count(), len(es))
		for _, e := range es[:n] {
			tail.add(e)
		}
		if err := writeBlock(ctx, tx, tail); err != nil {
			return err
		}
		es = es[n:]
	}
	for len(es) > 0 {
		n := min(limit, len(es))
		number++
		b := &indexBlock{userID: userID, embedder: embedder, dims: dims, block: number}
		for _, e := range es[:n] {
			b.add(e)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO memory_vectors
			(user_id, embedder, dims, block, count, ids, types, norms, vecs) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			userID, embedder, dims, number, b.count(), b.ids, b.kinds, b.norms, b.vecs); err != nil {
			return fmt.Errorf("insert vector block: %w", err)
		}
		if err := writeCodes(ctx, tx, b); err != nil {
			return err
		}
		es = es[n:]
	}
	return nil
}

// indexFind reads only the group's id column; a nil block means no block holds id.
func indexFind(ctx context.Context, tx *sql.Tx, userID, embedder string, dims int, id int64) (*indexBlock, int, error) {
	rows, err := tx.QueryContext(ctx, `SELECT rowid, ids FROM memory_vectors
		WHERE user_id = ? AND embedder = ? AND dims = ?`, userID, embedder, dims)
	if err != nil {
		return nil, 0, fmt.Errorf("find vector block: %w", err)
	}
	defer rows.Close()
	found, at := int64(0), -1
	for at < 0 && rows.Next() {
		var (
			rowid int64
			ids   sql.RawBytes
		)
		if err := rows.Scan(&rowid, &ids); err != nil {
			return nil, 0, fmt.Errorf("find vector block: %w", err)
		}
		for i := 0; 8*i+8 <= len(ids); i++ {
			if int64(binary.LittleEndian.Uint64(ids[8*i:])) == id {
				found, at = rowid, i
				break
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("find vector block: %w", err)
	}
	rows.Close()
	if at < 0 {
		return nil, 0, nil
	}
	b, err := readBlock(ctx, tx, userID, found)
	if err != nil {
		return nil, 0, err
	}
	if at >= b.count() || b.id(at) != id {
		return nil, 0, fmt.Errorf("vector block %d changed while read", found)
	}
	return b, at, nil
}

// indexRemove reports whether id was in the group.
func indexRemove(ctx context.Context, tx *sql.Tx, userID, embedder string, dims int, id int64) (bool, error) {
	b, i, err := indexFind(ctx, tx, userID, embedder, dims, id)
	if err != nil || b == nil {
		return false, err
	}
	b.remove(i, dims)
	return true, writeBlock(ctx, tx, b)
}

// indexReplace replaces e.id's vector in place and reports whether it was there.
func indexReplace(ctx context.Context, tx *sql.Tx, userID, embedder string, dims int, e indexEntry) (bool, error) {
	b, i, err := indexFind(ctx, tx, userID, embedder, dims, e.id)
	if err != nil || b == nil {
		return false, err
	}
	b.set(i, e)
	return true, writeBlock(ctx, tx, b)
}

// indexDeleteUser drops every block of a user, and their codes.
func indexDeleteUser(ctx context.Context, tx *sql.Tx, userID string) error {
	for _, table := range []string{"memory_vectors", "memory_codes"} {
		if _, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE user_id = ?`, userID); err != nil {
			return fmt.Errorf("delete vector blocks: %w", err)
		}
	}
	return nil
}

// indexMemories appends once per user, embedder and dimension.
func indexMemories(ctx context.Context, tx *sql.Tx, rows []memoryRow, ids []int64) error {
	type group struct {
		userID, embedder string
		dims             int
	}
	var (
		order  []group
		groups = map[group][]indexEntry{}
	)
	for i, r := range rows {
		if r.dims == 0 {
			continue
		}
		g := group{r.userID, r.embedder, r.dims}
		if _, ok := groups[g]; !ok {
			order = append(order, g)
		}
		groups[g] = append(groups[g], indexEntry{id: ids[i], kind: kindCode(nadine.MemoryType(r.typ)), norm: r.norm, vec: r.embedding})
	}
	for _, g := range order {
		if err := indexAppend(ctx, tx, g.userID, g.embedder, g.dims, groups[g]); err != nil {
			return err
		}
	}
	return nil
}

// buildMemoryIndex is migration 4's Go step; it also fills an empty
// memory_vectors for a schema-1 database, migration 2's old step.
func (s *Store) buildMemoryIndex(ctx context.Context, tx *sql.Tx) error {
	var indexed bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM memory_vectors)`).Scan(&indexed); err != nil {
		return err
	}
	if !indexed {
		return s.indexTable(ctx, tx) // writes the codes with the blocks
	}
	return s.buildMemoryCodes(ctx, tx)
}

// buildMemoryCodes reads 64 blocks at a time and writes their codes after each read.
func (s *Store) buildMemoryCodes(ctx context.Context, tx *sql.Tx) error {
	const batch = 64
	after, blocks := int64(0), 0
	for {
		rows, err := tx.QueryContext(ctx, `SELECT rowid, user_id, embedder, dims, block, ids, types, norms, vecs
			FROM memory_vectors WHERE rowid > ? ORDER BY rowid LIMIT ?`, after, batch)
		if err != nil {
			return err
		}
		var bs []*indexBlock
		for rows.Next() {
			b := &indexBlock{}
			if err := rows.Scan(&b.rowid, &b.userID, &b.embedder, &b.dims, &b.block, &b.ids, &b.kinds, &b.norms, &b.vecs); err != nil {
				rows.Close()
				return err
			}
			bs = append(bs, b)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, b := range bs {
			if b.bounds, b.codes, err = encodeCodes(b.vecs, b.dims); err != nil {
				return fmt.Errorf("vector block %d of user %q: %w", b.block, b.userID, err)
			}
			if err := writeCodes(ctx, tx, b); err != nil {
				return err
			}
			after = b.rowid
		}
		blocks += len(bs)
		if len(bs) < batch {
			s.log.Info("sqlite: quantized the memory vector index", "blocks", blocks)
			return nil
		}
	}
}

// indexTable fills memory_vectors one user at a time; a vector whose length is
// not a multiple of 4 (never written here) is skipped with a warning.
func (s *Store) indexTable(ctx context.Context, tx *sql.Tx) error {
	var users []string
	rows, err := tx.QueryContext(ctx, `SELECT DISTINCT user_id FROM memories ORDER BY user_id`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var u string
		if err := rows.Scan(&u); err != nil {
			rows.Close()
			return err
		}
		users = append(users, u)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	indexed := 0
	for _, u := range users {
		var (
			ms  []memoryRow
			ids []int64
		)
		rows, err := tx.QueryContext(ctx, `SELECT id, type, embedder, embedding FROM memories
			WHERE user_id = ? AND dims > 0 ORDER BY id`, u)
		if err != nil {
			return err
		}
		for rows.Next() {
			r := memoryRow{userID: u}
			var id int64
			if err := rows.Scan(&id, &r.typ, &r.embedder, &r.embedding); err != nil {
				rows.Close()
				return err
			}
			v, err := records.DecodeVector(r.embedding, nil)
			if err != nil || len(v) == 0 {
				s.log.Warn("sqlite: memory vector left out of the index", "user_id", nadine.PersonID(u), "id", id, "bytes", len(r.embedding))
				continue
			}
			r.dims, r.norm = len(v), norm(v)
			ms, ids = append(ms, r), append(ids, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if err := indexMemories(ctx, tx, ms, ids); err != nil {
			return err
		}
		indexed += len(ms)
	}
	s.log.Info("sqlite: built the memory vector index", "users", len(users), "vectors", indexed)
	return nil
}

// loadVectors quantizes a user above Options.QuantizeAbove and reads the codes
// unmapped, so pages read once do not stay resident.
func (s *Store) loadVectors(ctx context.Context, userID string) (*vecSet, error) {
	n, err := s.vectorCount(ctx, userID)
	if err != nil {
		return nil, err
	}
	if !s.quantized(n) {
		return readBlocks(ctx, s.r, userID)
	}
	return readCodes(ctx, s.u, userID, n.values, n.entries)
}

// vectorCounts are the sizes of one user's vectors in the index.
type vectorCounts struct {
	values, entries, blocks int64
}

// vectorCount reads only the index's small columns.
func (s *Store) vectorCount(ctx context.Context, userID string) (vectorCounts, error) {
	var n vectorCounts
	err := s.u.QueryRowContext(ctx, `SELECT coalesce(sum(count * dims), 0), coalesce(sum(count), 0), count(*)
		FROM memory_vectors WHERE user_id = ?`, userID).Scan(&n.values, &n.entries, &n.blocks)
	return n, err
}

// quantized reports whether vectors of these sizes are loaded quantized.
func (s *Store) quantized(n vectorCounts) bool {
	return s.quantize >= 0 && 4*n.values > s.quantize
}

// setBytes estimates vecSet.bytes of loadVectors' set without loading it.
func (s *Store) setBytes(n vectorCounts) int64 {
	b := 13*n.entries + 160*n.blocks + emptySetBytes // ids, kinds and norms; the blocks
	if s.quantized(n) {
		return b + n.values + 12*n.entries // codes, scale, residual and ratio
	}
	return b + 4*n.values
}

// queryer is a connection or a pool.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// readBlocks reads one user's blocks into a vector set of float32 vectors.
func readBlocks(ctx context.Context, db queryer, userID string) (*vecSet, error) {
	rows, err := db.QueryContext(ctx, `SELECT embedder, dims, ids, types, norms, vecs
		FROM memory_vectors WHERE user_id = ?`, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	set := &vecSet{}
	var ids, kinds, norms, vecs sql.RawBytes // valid until the next row: decoded at once
	for rows.Next() {
		var blk vecBlock
		if err := rows.Scan(&blk.embedder, &blk.dims, &ids, &kinds, &norms, &vecs); err != nil {
			return nil, err
		}
		if err := checkBlock(userID, blk.embedder, blk.dims, ids, kinds, norms, vecs); err != nil {
			return nil, err
		}
		blk.ids = decodeIDs(ids, nil)
		blk.kinds = slices.Clone([]uint8(kinds))
		if blk.norms, err = records.DecodeVector(norms, nil); err != nil {
			return nil, err
		}
		if blk.vecs, err = records.DecodeVector(vecs, nil); err != nil {
			return nil, err
		}
		set.blocks = append(set.blocks, blk)
	}
	return set, rows.Err()
}

// readCodes sizes one allocation per array from memory_vectors' counts, so a
// load converts nothing and allocates about twice the rows.
func readCodes(ctx context.Context, db queryer, userID string, values, entries int64) (*vecSet, error) {
	rows, err := db.QueryContext(ctx, `SELECT embedder, dims, ids, types, norms, bounds, codes
		FROM memory_codes WHERE user_id = ?`, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	set := &vecSet{quantized: true}
	var (
		ids, kinds, norms, bounds, codes sql.RawBytes // valid until the next row: copied at once
		a                                codeArena
	)
	a.reserve(int(entries), int(values))
	for rows.Next() {
		var blk vecBlock
		if err := rows.Scan(&blk.embedder, &blk.dims, &ids, &kinds, &norms, &bounds, &codes); err != nil {
			return nil, err
		}
		n := len(kinds)
		if blk.dims <= 0 || len(ids) != 8*n || len(norms) != 4*n || len(bounds) != 12*n || len(codes) != n*blk.dims {
			return nil, fmt.Errorf("vector codes of user %q, embedder %q: inconsistent sizes", userID, blk.embedder)
		}
		a.block(&blk, n)
		decodeIDs(ids, blk.ids)
		copy(blk.kinds, kinds)
		if _, err := records.DecodeVector(norms, blk.norms); err != nil {
			return nil, err
		}
		for i := range n {
			blk.scale[i] = math.Float32frombits(binary.LittleEndian.Uint32(bounds[12*i:]))
			blk.resid[i] = math.Float32frombits(binary.LittleEndian.Uint32(bounds[12*i+4:]))
			blk.ratio[i] = math.Float32frombits(binary.LittleEndian.Uint32(bounds[12*i+8:]))
		}
		copy(int8Bytes(blk.q8), codes)
		set.blocks = append(set.blocks, blk)
	}
	return set, rows.Err()
}

// codeArena cuts blocks' arrays from shared allocations, each capped at its
// length so that appending copies it (see vecSet.appended).
type codeArena struct {
	ids                        []int64
	kinds                      []uint8
	norms, scale, resid, ratio []float32
	mem                        *codeMemory
	q8                         []int8
}

// reserve allocates room for entries vectors of values values in all.
func (a *codeArena) reserve(entries, values int) {
	a.ids, a.kinds = make([]int64, 0, entries), make([]uint8, 0, entries)
	a.norms, a.scale = make([]float32, 0, entries), make([]float32, 0, entries)
	a.resid, a.ratio = make([]float32, 0, entries), make([]float32, 0, entries)
	a.mem = newCodeMemory(values)
	a.q8 = unsafe.Slice((*int8)(unsafe.Pointer(unsafe.SliceData(a.mem.b))), len(a.mem.b))[:0]
}

// block gives blk the arrays of n vectors of blk.dims values.
func (a *codeArena) block(blk *vecBlock, n int) {
	blk.ids, blk.kinds = take(&a.ids, n), take(&a.kinds, n)
	blk.norms, blk.scale, blk.resid, blk.ratio = take(&a.norms, n), take(&a.scale, n), take(&a.resid, n), take(&a.ratio, n)
	if cap(a.q8)-len(a.q8) >= n*blk.dims {
		blk.mem = a.mem
	}
	blk.q8 = take(&a.q8, n*blk.dims)
}

// take returns the next n elements of *arena, allocating them apart when
// the arena is full (rows written since it was sized).
func take[T any](arena *[]T, n int) []T {
	s := *arena
	if cap(s)-len(s) < n {
		return make([]T, n)
	}
	*arena = s[:len(s)+n]
	return s[len(s) : len(s)+n : len(s)+n]
}

// searchIndex is the search without cache: blocks are scored as read, in the
// driver's buffer when its alignment allows, so each is copied once.
func (s *Store) searchIndex(ctx context.Context, userID string, q []float32, embedder string, k int, kinds uint8) ([]scored, error) {
	if k <= 0 || kinds == 0 {
		return nil, nil
	}
	sr := newSearch(q, k, kinds)
	rows, err := s.r.QueryContext(ctx, `SELECT ids, types, norms, vecs FROM memory_vectors
		WHERE user_id = ? AND embedder = ? AND dims = ?`, userID, embedder, len(q))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var (
		ids, kinds8, norms, vecs sql.RawBytes
		idBuf                    []int64
		normBuf, vecBuf          []float32
	)
	for rows.Next() {
		if err := rows.Scan(&ids, &kinds8, &norms, &vecs); err != nil {
			return nil, err
		}
		if err := checkBlock(userID, embedder, len(q), ids, kinds8, norms, vecs); err != nil {
			return nil, err
		}
		blk := vecBlock{embedder: embedder, dims: len(q), kinds: kinds8}
		idBuf = decodeIDs(ids, idBuf)
		blk.ids = idBuf
		if blk.norms, err = floatView(norms, &normBuf); err != nil {
			return nil, err
		}
		if blk.vecs, err = floatView(vecs, &vecBuf); err != nil {
			return nil, err
		}
		sr.add(&blk)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return sr.result(), nil
}

// checkBlock checks that the arrays of a stored block agree in length.
func checkBlock(userID, embedder string, dims int, ids, kinds, norms, vecs []byte) error {
	n := len(kinds)
	if dims <= 0 || len(ids) != 8*n || len(norms) != 4*n || len(vecs) != 4*n*dims {
		return fmt.Errorf("vector block of user %q, embedder %q: inconsistent sizes", userID, embedder)
	}
	return nil
}

// decodeIDs reuses dst when large enough.
func decodeIDs(b []byte, dst []int64) []int64 {
	n := len(b) / 8
	if cap(dst) < n {
		dst = make([]int64, n)
	}
	dst = dst[:n]
	for i := range dst {
		dst[i] = int64(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return dst
}
