package offline

import (
	"context"
	"strings"

	"github.com/nadine-robot/nadine"
)

// known reports whether id names a person.
func known(id string) bool { return id != "" && id != nadine.UnknownUser }

// fail records a store failure; the turn goes on without the store.
func (t *turn) fail(op string, err error) {
	t.storeFailed = true
	nadine.TraceFrom(t.ctx).Fail("offline:store", err)
	if t.ctx.Err() == nil { // a cancelled turn's write is no store failure
		t.e.log.Warn("offline: store failed", "op", op, "user", nadine.PersonID(t.userID), "err", err)
	}
}

// loadProfile returns the current user's stored profile, once per turn.
func (t *turn) loadProfile() (nadine.Profile, bool) {
	if t.profileLoaded {
		return t.profile, t.hasProfile
	}
	t.profileLoaded = true
	if t.e.store == nil || !known(t.userID) {
		return nadine.Profile{}, false
	}
	p, err := t.e.store.Profile(t.ctx, t.userID)
	if err != nil {
		if nadine.ErrorCode(err) != nadine.ENOTFOUND {
			t.fail("profile", err)
		}
		return nadine.Profile{}, false
	}
	t.profile, t.hasProfile = p, true
	return p, true
}

// name returns the current user's name: the turn's, else the store's.
func (t *turn) name() string {
	if t.userName != "" || t.nameLoaded {
		return t.userName
	}
	t.nameLoaded = true
	if t.e.store == nil || !known(t.userID) {
		return ""
	}
	if p, ok := t.loadProfile(); ok && strings.TrimSpace(p.UserName) != "" {
		t.userName = strings.TrimSpace(p.UserName)
		return t.userName
	}
	// A name without a profile (recorded by face recognition).
	users, err := t.e.store.Users(t.ctx)
	if err != nil {
		t.fail("users", err)
		return ""
	}
	for _, u := range users {
		if u.ID == t.userID {
			t.userName = strings.TrimSpace(u.Name)
			break
		}
	}
	return t.userName
}

// introduce settles who gave the name (known by it, the current person if
// unnamed, or someone new), emits the user event and returns the template key.
func (t *turn) introduce(name string, lang nadine.Language) (key, fact string) {
	st := t.e.store
	current, currentName := t.userID, t.name()
	id, back := "", false
	switch {
	case known(current) && strings.EqualFold(currentName, name):
		id, back = current, true
	case st != nil:
		users, err := st.Users(t.ctx)
		if err != nil {
			t.fail("users", err)
			break
		}
		for _, u := range users {
			if strings.EqualFold(strings.TrimSpace(u.Name), name) && (id == "" || u.ID == current) {
				id, back = u.ID, true
			}
		}
	}
	saved := false
	if !back {
		if known(current) && currentName == "" {
			id = current // a recognized face without a name
		} else {
			id = t.e.newUserID(name)
		}
		if st != nil {
			t.saveNameAfterReply(id, name, id == current)
			// The store answered this turn's reads: the reply can say the
			// name is kept (a write that fails after it is traced).
			saved = !t.storeFailed
		}
	}
	if id != current {
		t.profileLoaded, t.hasProfile, t.profile = false, false, nadine.Profile{}
	}
	t.userID, t.userName, t.nameLoaded = id, name, true
	t.before = append(t.before, nadine.Event{Kind: nadine.EventUser, User: &nadine.UserRef{ID: id, Name: name}})
	switch {
	case back:
		if p, ok := t.loadProfile(); ok {
			if k, v := factOf(p); k != "" {
				return tNameBackFact, t.e.line(lang, k, slots{fact: v})
			}
		}
		return tNameBack, ""
	case saved:
		return tNameSaved, ""
	}
	return tNameNew, ""
}

// saveNameAfterReply records the name once the reply is out, so an early turn
// nobody adopts stores nothing.
func (t *turn) saveNameAfterReply(id, name string, current bool) {
	now, st, log := t.e.now(), t.e.store, t.e.log
	u, updates := st.(nadine.ProfileUpdater)
	var p nadine.Profile
	if !updates && current {
		p, _ = t.loadProfile()
	}
	tr := nadine.TraceFrom(t.ctx)
	t.req.RunAfterReply(t.ctx, func(ctx context.Context) {
		var err error
		if updates {
			_, err = u.UpdateProfile(ctx, id, func(p nadine.Profile, _ bool) (nadine.Profile, error) {
				p.UserName, p.LastUpdated = name, now
				return p, nil
			})
		} else {
			p.UserID, p.UserName, p.LastUpdated = id, name, now
			err = st.SaveProfile(ctx, p)
		}
		if err != nil {
			tr.Fail("offline:store", err)
			log.Warn("offline: store failed", "op", "save profile", "user", nadine.PersonID(id), "err", err)
		}
	})
}

// remember answers "Do you remember me?".
func (t *turn) remember(lang nadine.Language) (key, name, fact string) {
	name = t.name()
	if name == "" {
		return tRememberUnknown, "", ""
	}
	if p, ok := t.loadProfile(); ok {
		if k, v := factOf(p); k != "" {
			return tRememberFact, name, t.e.line(lang, k, slots{fact: v})
		}
	}
	return tRememberName, name, ""
}

// factOf picks the one remembered fact Nadine mentions: company, position,
// location, hobby, interest, in that order.
func factOf(p nadine.Profile) (key, value string) {
	first := func(xs []string) string {
		for _, x := range xs {
			if x = strings.TrimSpace(x); x != "" {
				return x
			}
		}
		return ""
	}
	for _, f := range []struct{ key, value string }{
		{tFactCompany, strings.TrimSpace(p.CurrentCompany)},
		{tFactPosition, strings.TrimSpace(p.CurrentPosition)},
		{tFactLocation, strings.TrimSpace(p.Location)},
		{tFactHobby, first(p.Hobbies)},
		{tFactInterest, first(p.Interests)},
	} {
		if f.value != "" {
			return f.key, f.value
		}
	}
	return "", ""
}

// song queues the library's first song in want after the announcement, else one
// in another language, saying so; without any, she says truly why she cannot sing.
func (t *turn) song(want, replyLang nadine.Language) (key, title, langName string) {
	if t.e.songs == nil {
		return tSongNoLibrary, "", ""
	}
	langs := []nadine.Language{want}
	if replyLang != want {
		langs = append(langs, replyLang) // then one in the language of the conversation
	}
	for _, l := range nadine.Languages() {
		if l != want && l != replyLang {
			langs = append(langs, l)
		}
	}
	for i, l := range langs {
		songs := t.songsIn(l)
		if len(songs) == 0 {
			continue
		}
		song := songs[0]
		t.after = append(t.after, nadine.Event{Kind: nadine.EventSong, Song: &song})
		if i == 0 {
			return tSong, strings.TrimSpace(song.Title), ""
		}
		return tSongOtherLang, strings.TrimSpace(song.Title), t.e.langNames[replyLang][want]
	}
	return tSongEmpty, "", ""
}

// songsIn returns the library's songs in lang that have a title, asking
// the library once per turn.
func (t *turn) songsIn(lang nadine.Language) []nadine.Song {
	if t.e.songs == nil {
		return nil
	}
	if songs, ok := t.songs[lang]; ok {
		return songs
	}
	var out []nadine.Song
	for _, s := range t.e.songs(lang) {
		if (s.Language == "" || s.Language == lang) && strings.TrimSpace(s.Title) != "" {
			out = append(out, s)
		}
	}
	if t.songs == nil {
		t.songs = make(map[nadine.Language][]nadine.Song)
	}
	t.songs[lang] = out
	return out
}

// hasSongs reports whether the song library holds a song in any language.
func (t *turn) hasSongs() bool {
	for _, l := range nadine.Languages() {
		if len(t.songsIn(l)) > 0 {
			return true
		}
	}
	return false
}
