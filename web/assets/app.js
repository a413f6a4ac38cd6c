// Nadine monitor: plain JavaScript, no dependencies, talking to the JSON API
// of the server that served it. Text from users and models is only ever set
// with textContent (never innerHTML), so it cannot inject markup.
'use strict';

(() => {
  const $ = (sel) => document.querySelector(sel);

  // h builds an element: h('p', {class: 'x', text: 'hi'}, child, ...).
  function h(tag, props, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k === 'text') e.textContent = v;
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children.flat(Infinity)) {
      if (c === undefined || c === null || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  // fill replaces the children of an element, skipping empty ones.
  function fill(el, ...children) {
    el.replaceChildren(...children.flat(Infinity).filter((c) => c !== undefined && c !== null && c !== false));
  }

  function s(tag, attrs) {
    const e = document.createElementNS('http://www.w3.org/2000/svg', tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    return e;
  }

  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  const state = {
    token: sessionStorage.getItem('nadine.token') || '',
    turns: new Map(), // turn id → card
    mine: new Set(), // ids of turns typed in this page
    session: null,
    mood: [], // PAD samples: {p, a, d, at}
    languages: { en: 'English', fr: 'French', de: 'German', zh: 'Chinese' },
    languageBusy: false,
    selectedUser: null,
    robots: [], // {name, default, engine, offline}: the robots of the process
    robot: '', // the robot shown ('' before the list is known: the default)
    live: null, // the AbortController of the robot's event stream
  };

  // robotAPI is the path of one of the shown robot's URLs ('/session'):
  // /api/robots/NAME/session, or /api/session for the default robot.
  function robotAPI(path) {
    if (!state.robot) return '/api' + path;
    return '/api/robots/' + encodeURIComponent(state.robot) + path;
  }

  // ---------------------------------------------------------------- API

  class APIError extends Error {
    constructor(status, body) {
      super((body && body.error) || 'HTTP ' + status);
      this.status = status;
      this.code = body && body.code;
    }
  }

  let tokenPromise = null;

  // askToken shows the token dialog once, however many requests wait on it.
  function askToken() {
    if (!tokenPromise) {
      tokenPromise = new Promise((resolve) => {
        const dlg = $('#token-dialog');
        const input = $('#token-input');
        input.value = '';
        dlg.addEventListener('close', () => {
          state.token = input.value.trim();
          sessionStorage.setItem('nadine.token', state.token);
          tokenPromise = null;
          resolve();
        }, { once: true });
        dlg.showModal();
      });
    }
    return tokenPromise;
  }

  async function request(method, path, body, accept, signal) {
    for (;;) {
      const headers = {};
      if (state.token) headers.Authorization = 'Bearer ' + state.token;
      if (accept) headers.Accept = accept;
      const init = { method, headers, cache: 'no-store', signal };
      if (body !== undefined) {
        headers['Content-Type'] = 'application/json';
        init.body = JSON.stringify(body);
      }
      const res = await fetch(path, init);
      if (res.status === 401) {
        await askToken();
        continue;
      }
      return res;
    }
  }

  async function failure(res) {
    let data = null;
    try { data = await res.json(); } catch (_) { /* not JSON */ }
    return new APIError(res.status, data);
  }

  async function api(method, path, body) {
    const res = await request(method, path, body);
    if (!res.ok) throw await failure(res);
    return res.json();
  }

  // readSSE reads a Server-Sent Events body and calls onEvent(name, data)
  // for each event. fetch is used rather than EventSource so that the token
  // travels in a header, never in a URL.
  async function readSSE(res, onEvent) {
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buf = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buf += value;
      let i;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        let name = 'message';
        const data = [];
        for (const line of block.split('\n')) {
          if (line === '' || line.startsWith(':')) continue;
          const c = line.indexOf(':');
          const field = c < 0 ? line : line.slice(0, c);
          let v = c < 0 ? '' : line.slice(c + 1);
          if (v.startsWith(' ')) v = v.slice(1);
          if (field === 'event') name = v;
          else if (field === 'data') data.push(v);
        }
        if (data.length) onEvent(name, JSON.parse(data.join('\n')));
      }
    }
  }

  // ---------------------------------------------------------- formatting

  function fmtDur(ns) {
    const ms = (ns || 0) / 1e6;
    if (ms < 1) return ms.toFixed(2) + ' ms';
    if (ms < 10) return ms.toFixed(1) + ' ms';
    if (ms < 1000) return ms.toFixed(0) + ' ms';
    return (ms / 1000).toFixed(2) + ' s';
  }

  // timeMs parses an RFC 3339 time keeping sub-millisecond digits.
  function timeMs(t) {
    if (!t) return NaN;
    const m = /\.(\d+)/.exec(t);
    const frac = m ? Number('0.' + m[1]) * 1000 : 0;
    return Date.parse(t.replace(/\.\d+/, '')) + frac;
  }

  const langName = (code) => state.languages[code] || code || '—';
  const plural = (n, one, many) => n + ' ' + (n === 1 ? one : many);

  function showError(msg) {
    const p = $('#composer-error');
    p.textContent = msg;
    p.hidden = !msg;
  }

  // -------------------------------------------------------------- turns

  function turnCard(id, source) {
    let t = state.turns.get(id);
    if (t) return t;
    const el = h('article', { class: 'turn', 'data-turn-id': id, 'data-state': 'pending' });
    t = { id, el, source, speech: [], fillers: [], done: false, userName: '', userEmotion: '' };
    t.meta = h('div', { class: 'meta' },
      h('span', { class: 'source ' + source, text: source === 'bus' ? 'heard on the robot' : 'typed here' }),
      h('span', { text: new Date().toLocaleTimeString() }));
    t.userMsg = h('div', { class: 'msg user' });
    t.nadineMsg = h('div', { class: 'msg nadine' },
      h('div', { class: 'who' }, h('strong', { text: 'Nadine' }), h('span', { class: 'muted', text: 'thinking…' })));
    el.append(t.meta, t.userMsg, t.nadineMsg);
    state.turns.set(id, t);
    // Newest first, right under the composer.
    $('#turns').prepend(el);
    $('#empty').hidden = true;
    return t;
  }

  // busTurn starts the card of a turn heard on the robot: who spoke is who
  // the session says is there.
  function busTurn(id) {
    const t = turnCard(id, 'bus');
    const sess = state.session || {};
    const u = sess.user || {};
    t.userName = u.user_name || (u.user_id && u.user_id !== 'unknown' ? u.user_id : '');
    t.userEmotion = sess.user_emotion || '';
    renderUser(t, '…');
    return t;
  }

  function renderUser(t, input, english) {
    fill(t.userMsg,
      h('div', { class: 'who' },
        h('strong', { text: t.userName || 'Unknown person' }),
        t.userEmotion ? h('span', { class: 'chip', text: 'face: ' + t.userEmotion }) : null),
      h('p', { class: 'text', text: input }),
      english ? h('p', { class: 'english', text: english }) : null);
  }

  function renderSpeech(t) {
    if (t.done) return;
    fill(t.nadineMsg,
      h('div', { class: 'who' }, h('strong', { text: 'Nadine' }), h('span', { class: 'muted', text: 'speaking…' })),
      fillerLine(t),
      h('p', { class: 'text', text: t.speech.join(' ') }));
  }

  // fillerLine shows what Nadine said while the turn waited on a tool
  // (not part of the reply), greyed.
  function fillerLine(t) {
    return t.fillers.length ? h('p', { class: 'filler', title: 'said while waiting, not part of the reply', text: t.fillers.join(' ') }) : null;
  }

  // renderReply fills a card with a finished turn ({turn_id, input, reply}).
  function renderReply(t, turn) {
    if (t.done) return;
    t.done = true;
    const r = turn.reply;
    const tr = r.trace || null;
    if (!t.userName) t.userName = r.user_name || (r.user_id && r.user_id !== 'unknown' ? r.user_id : '');
    renderUser(t, turn.input, tr && tr.input_english);
    const who = h('div', { class: 'who' },
      h('strong', { text: 'Nadine' }),
      h('span', { class: 'emotion-badge emo-' + (r.emotion || 'neutral'), text: (r.emotion || 'neutral') + ' ' + (r.emotion_intensity || 0) }),
      (r.gestures || []).map((g) => h('span', { class: 'chip gesture', text: g })),
      r.category ? h('span', { class: 'chip', text: r.category }) : null,
      h('span', { class: 'chip', text: langName(r.language) }),
      r.fallback ? h('span', { class: 'chip fallback', text: 'fallback' }) : null);
    fill(t.nadineMsg, who,
      fillerLine(t),
      h('p', { class: 'text', text: r.text }),
      tr && tr.reply_english ? h('p', { class: 'english', text: tr.reply_english }) : null);
    if (tr) t.el.append(traceView(tr));
    t.el.dataset.language = r.language || '';
    t.el.dataset.state = 'done';
  }

  function onTurnEvent(id, e, fromOwnStream) {
    if (!id || !e) return;
    // A turn typed here is shown from its own stream, not twice.
    if (state.mine.has(id) && !fromOwnStream) return;
    const t = state.turns.get(id) || busTurn(id);
    if (e.kind === 'speech') {
      (e.filler ? t.fillers : t.speech).push(e.text);
      renderSpeech(t);
    } else if (e.kind === 'affect' && e.affect) {
      renderAffect(e.affect);
    }
  }

  // onSkipped shows a heard transcript that is not answered: expired (too
  // old), dropped from a full queue, superseded by a newer one while the
  // queue was overloaded, heard while Nadine spoke, or interrupted by a
  // restart.
  const skippedText = {
    expired: 'not answered: expired (too old to answer)',
    queue_full: 'not answered: dropped, the turn queue was full',
    superseded: 'not answered: a newer transcript came first (the turn queue was overloaded)',
    speaking: 'not answered: heard while Nadine was speaking',
    interrupted: 'not answered again: interrupted by a restart',
    backchannel: 'heard while Nadine spoke: a backchannel, she went on',
    echo: 'heard while Nadine spoke: her own voice, ignored',
    noise: 'heard while Nadine spoke: noise, ignored',
    talked_over: 'not answered: the person talked over it; their words came next',
  };

  // onInterrupted marks a reply the person talked over: what she had said
  // when she stopped, or that she resumed after a false interruption.
  function onInterrupted(u) {
    const t = state.turns.get(u.turn_id);
    if (!t) return;
    t.el.dataset.interrupted = u.reason || 'interrupted';
    let text = 'interrupted by the person';
    if (u.reason === 'speech') text = 'stopped: someone started to speak';
    else if (u.reason === 'resumed') text = 'resumed: it was a false interruption';
    else if (u.said) text = 'interrupted; the person heard: “' + u.said + '”';
    else text = 'interrupted before the person heard anything';
    t.nadineMsg.appendChild(h('div', { class: 'muted interrupted', text: '⏹ ' + text }));
  }

  function onSkipped(u) {
    const t = busTurn(u.turn_id || 'skipped-' + Date.now());
    renderUser(t, u.input || '');
    t.done = true;
    t.el.dataset.state = u.kind;
    fill(t.nadineMsg, h('div', { class: 'who' }, h('strong', { text: 'Nadine' }),
      h('span', { class: 'muted', text: skippedText[u.reason] || 'not answered' })));
  }

  function onTurnDone(u) {
    const t = state.turns.get(u.turn_id) || busTurn(u.turn_id);
    renderReply(t, u);
    loadUsers().catch(() => {});
  }

  // recentTurn shows a turn that finished before the page was opened: who
  // spoke is who the reply says.
  function recentTurn(u) {
    if (!u.turn_id || !u.reply || state.turns.has(u.turn_id)) return;
    const t = turnCard(u.turn_id, 'bus');
    const r = u.reply;
    t.userName = r.user_name || (r.user_id && r.user_id !== 'unknown' ? r.user_id : '');
    t.meta.lastChild.textContent = r.trace && r.trace.start ? new Date(r.trace.start).toLocaleTimeString() : '';
    renderReply(t, u);
  }

  // renderEnded marks the end of an interaction between the turns: the
  // next person starts fresh.
  function renderEnded(e) {
    if (!e) return;
    const u = e.user || {};
    const who = u.user_name || (u.user_id && u.user_id !== 'unknown' ? u.user_id : 'a stranger');
    const n = e.turns || 0;
    const el = h('div', { class: 'ended', 'data-reason': e.reason || '' },
      h('span', { text: 'Interaction with ' + who + ' ended (' + (e.reason || 'left') + ', ' + n + (n === 1 ? ' turn' : ' turns') + ')' }));
    $('#turns').prepend(el);
    $('#empty').hidden = true;
  }

  // -------------------------------------------------------------- trace

  function traceView(tr) {
    const calls = tr.model_calls || [];
    const tokens = calls.reduce((n, c) => n + (c.prompt_tokens || 0) + (c.completion_tokens || 0), 0);
    const fails = (tr.failures || []).length;
    const parts = [fmtDur(tr.duration_ns), plural(calls.length, 'model call', 'model calls')];
    if (tokens) parts.push(tokens + ' tokens');
    parts.push('critical path ' + (tr.critical_path || 0));
    if (tr.first_speech_ns) parts.push('first speech ' + fmtDur(tr.first_speech_ns));
    if (fails) parts.push(plural(fails, 'failure', 'failures'));
    const d = h('details', { class: 'trace' },
      h('summary', null, 'Trace · ', h('b', { text: tr.engine || '?' }), ' · ' + parts.join(' · ')));
    let built = false;
    d.addEventListener('toggle', () => {
      if (d.open && !built) {
        built = true;
        d.append(...traceBody(tr));
      }
    });
    return d;
  }

  function traceBody(tr) {
    const t0 = timeMs(tr.start);
    const rows = [];
    for (const x of tr.steps || []) {
      rows.push({ kind: 'step', label: x.name, start: x.start, dur: x.duration_ns, failed: !!x.error, title: x.error || x.detail || x.name });
    }
    for (const c of tr.model_calls || []) {
      rows.push({
        kind: 'model', label: c.role + ' · ' + c.profile + '/' + c.model, start: c.start, dur: c.latency_ns,
        extra: (c.prompt_tokens || 0) + '→' + (c.completion_tokens || 0) + ' tok', failed: !!c.error,
        title: c.error || ('attempts ' + (c.attempts || 1) + (c.stream ? ', streamed' : '')),
      });
    }
    for (const c of tr.tool_calls || []) {
      rows.push({ kind: 'tool', label: c.tool, start: c.start, dur: c.duration_ns, failed: !!c.error, title: c.error || c.input });
    }
    for (const r of tr.retrievals || []) {
      rows.push({ kind: 'retrieval', label: r.kind + ': ' + r.query, start: r.start, dur: r.duration_ns, title: plural((r.results || []).length, 'result', 'results') });
    }
    rows.sort((a, b) => timeMs(a.start) - timeMs(b.start));
    let span = (tr.duration_ns || 0) / 1e6;
    for (const r of rows) span = Math.max(span, timeMs(r.start) - t0 + (r.dur || 0) / 1e6);
    if (!(span > 0)) span = 1;

    const tl = h('div', { class: 'timeline' });
    for (const r of rows) {
      const left = Math.min(99.5, Math.max(0, ((timeMs(r.start) - t0) / span) * 100));
      const width = Math.min(100 - left, Math.max(0.5, (((r.dur || 0) / 1e6) / span) * 100));
      const bar = h('div', { class: 'tl-bar' });
      bar.style.left = left + '%';
      bar.style.width = width + '%';
      tl.append(h('div', { class: 'tl-row ' + r.kind + (r.failed ? ' failed' : ''), title: r.title || '' },
        h('span', { class: 'tl-label', text: r.label }),
        h('div', { class: 'tl-track' }, bar),
        h('span', { class: 'tl-dur', text: fmtDur(r.dur) + (r.extra ? ' · ' + r.extra : '') })));
    }
    if (!rows.length) tl.append(h('div', { class: 'muted', text: 'No step recorded.' }));
    tl.append(h('div', { class: 'tl-axis' }, h('span'),
      h('span', { class: 'ends' }, h('span', { text: '0' }), h('span', { text: fmtDur(span * 1e6) })), h('span')));

    const out = [tl];
    const section = (cls, title, items) => {
      if (items.length) out.push(h('div', { class: 'trace-section ' + cls }, h('h3', { text: title }), h('ul', null, items)));
    };
    const en = [];
    if (tr.input_english) en.push(h('li', null, h('b', { text: 'Input: ' }), tr.input_english));
    if (tr.reply_english) en.push(h('li', null, h('b', { text: 'Reply: ' }), tr.reply_english));
    section('english', 'English', en);
    section('tools', 'Tool calls', (tr.tool_calls || []).map((c) =>
      h('li', null, h('b', { text: c.tool }), ' (' + c.input + ') → ' + (c.error ? 'error: ' + c.error : c.output))));
    section('retrievals', 'Retrievals', (tr.retrievals || []).map((r) =>
      h('li', null, h('b', { text: r.kind }), ' “' + r.query + '”' + (r.note ? ' — ' + r.note : ''),
        h('ul', null, (r.results || []).map((x) => h('li', { text: x.text + ' (' + Number(x.score).toFixed(2) + ')' }))))));
    section('failures', 'Failures', (tr.failures || []).map((f) => h('li', { text: f.stage + ' [' + f.code + ']: ' + f.error })));
    section('notes', 'Notes', (tr.notes || []).map((n) => h('li', { text: n })));
    return out;
  }

  // ------------------------------------------------------ session, affect

  function renderSession(sess) {
    if (!sess) return;
    state.session = sess;
    const u = sess.user || {};
    const known = u.user_id && u.user_id !== 'unknown';
    $('#who-name').textContent = u.user_name || (known ? u.user_id : 'Unknown person');
    $('#who-id').textContent = known ? u.user_id : '';
    $('#who-avatar').textContent = ((u.user_name || '').trim().charAt(0) || '?').toUpperCase();
    $('#who-emotion').textContent = sess.user_emotion || 'neutral';
    $('#session-language').textContent = langName(sess.language);
    $('#who-conv').textContent = sess.conversation_id || '—';
    document.body.dataset.language = sess.language || '';
    if (!state.languageBusy && sess.language) $('#language').value = sess.language;
    renderAffect(sess.mood);
  }

  function renderAffect(m) {
    if (!m) return;
    const label = m.label || 'neutral';
    const badge = $('#affect-label');
    badge.textContent = label;
    badge.className = 'emotion-badge emo-' + label;
    const intensity = Math.max(0, Math.min(1, m.intensity || 0));
    $('#affect-intensity').style.width = intensity * 100 + '%';
    $('#affect-intensity-text').textContent = intensity.toFixed(1);
    $('#mood-label').textContent = m.mood_label || 'neutral';
    $('#pad-p').textContent = (m.pleasure || 0).toFixed(2);
    $('#pad-a').textContent = (m.mood_arousal || 0).toFixed(2);
    $('#pad-d').textContent = (m.dominance || 0).toFixed(2);
    const p = { p: m.pleasure || 0, a: m.mood_arousal || 0, d: m.dominance || 0, at: Date.now() };
    const last = state.mood[state.mood.length - 1];
    // The same mood reported twice in a row (an affect event, then the
    // session after the turn) is one sample.
    if (last && last.p === p.p && last.a === p.a && last.d === p.d && p.at - last.at < 1500) return;
    state.mood.push(p);
    if (state.mood.length > 60) state.mood.shift();
    drawPAD();
  }

  function drawPAD() {
    const plot = $('#pad-plot');
    const W = 300, H = 120, L = 24, R = 6, T = 8, B = 8;
    const y = (v) => T + ((1 - Math.max(-1, Math.min(1, v))) / 2) * (H - T - B);
    const n = state.mood.length;
    const x = (i) => (n < 2 ? L : L + (i / (n - 1)) * (W - L - R));
    const kids = [];
    for (const v of [1, 0, -1]) {
      kids.push(s('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: v === 0 ? 'zero' : 'grid' }));
      const t = s('text', { x: 2, y: y(v) + 3, class: 'axis-label' });
      t.textContent = v > 0 ? '+1' : String(v);
      kids.push(t);
    }
    for (const k of ['p', 'a', 'd']) {
      let pts = state.mood.map((m, i) => x(i).toFixed(1) + ',' + y(m[k]).toFixed(1));
      if (n === 1) pts = [pts[0], (W - R) + ',' + y(state.mood[0][k]).toFixed(1)];
      kids.push(s('polyline', { points: pts.join(' '), class: k }));
    }
    fill(plot, ...kids);
  }

  // -------------------------------------------------------------- users

  async function loadUsers() {
    const users = await api('GET', '/api/users');
    const list = $('#user-list');
    fill(list, ...users.map((u) => h('li', null,
      h('button', { type: 'button', 'aria-current': state.selectedUser === u.user_id ? 'true' : null, onclick: () => showUser(u.user_id) },
        h('span', { text: u.user_name || '(no name)' }), h('span', { class: 'mono', text: u.user_id })))));
    if (!users.length) list.append(h('li', { class: 'muted', text: 'Nobody yet.' }));
    fill($('#known-users'), ...users.filter((u) => u.user_name).map((u) => h('option', { value: u.user_name })));
  }

  async function showUser(id) {
    state.selectedUser = id;
    const d = await api('GET', '/api/users/' + encodeURIComponent(id));
    const p = d.profile || {};
    const facts = [
      ['Company', p.current_company], ['Position', p.current_position], ['Location', p.location],
      ['Hobbies', (p.hobbies || []).join(', ')], ['Interests', (p.interests || []).join(', ')],
      ['Updated', p.last_updated && !p.last_updated.startsWith('0001') ? new Date(p.last_updated).toLocaleString() : ''],
    ].filter((f) => f[1]);
    const box = $('#user-detail');
    box.hidden = false;
    fill(box,
      h('h3', { text: d.user.user_name || d.user.user_id }),
      h('div', { class: 'mono muted', text: d.user.user_id }),
      facts.length ? h('dl', { class: 'facts' }, facts.map(([k, v]) => [h('dt', { text: k }), h('dd', { text: v })])) : null,
      h('div', { class: 'muted', text: plural(d.memories.length, 'memory', 'memories') }),
      h('ul', { class: 'memories' }, d.memories.map((m) => h('li', null,
        h('span', { class: 'mono muted', text: '#' + m.id + ' · ' + m.type + ' · ' + new Date(m.time).toLocaleString() }), m.text))),
      h('div', { class: 'actions' },
        h('button', { type: 'button', class: 'secondary', onclick: () => forget(id, 'memories') }, 'Delete memories'),
        h('button', { type: 'button', class: 'danger', onclick: () => forget(id, 'user') }, 'Forget user')));
    await loadUsers();
  }

  async function forget(id, what) {
    const msg = what === 'user'
      ? 'Forget ' + id + ' entirely? Profile, name, history and memories are erased.'
      : 'Delete every memory of ' + id + '? The profile stays.';
    if (!window.confirm(msg)) return;
    try {
      const path = '/api/users/' + encodeURIComponent(id) + (what === 'user' ? '' : '/memories');
      await api('DELETE', path);
      if (what === 'user') {
        state.selectedUser = null;
        $('#user-detail').hidden = true;
        await loadUsers();
      } else {
        await showUser(id);
      }
    } catch (e) {
      showError(e.message);
    }
  }

  // ---------------------------------------------------------------- info

  // renderEngine shows the engine answering the shown robot's turns.
  function renderEngine(engine, offline) {
    const eng = $('#engine');
    eng.hidden = !engine;
    eng.textContent = engine === 'offline' ? 'offline · rule-based' : 'engine · ' + engine;
    eng.classList.toggle('offline', engine === 'offline');
    eng.title = offline || 'Engine answering the turns';
  }

  async function loadInfo() {
    const info = await api('GET', '/api/info');
    for (const l of info.languages || []) state.languages[l.code] = l.name;
    renderEngine(info.engine, info.offline);
    const rows = [['Version', info.version || 'dev'], ['Engine', info.engine || '?']];
    if (info.offline) rows.push(['Why offline', info.offline]);
    for (const m of info.models || []) {
      rows.push(['Model ' + m.profile, m.model + ' at ' + m.host + (m.ready ? '' : ' (not reachable: no key)')]);
    }
    if ((info.fallback || []).length) rows.push(['Fallback', info.fallback.join(', ') + ', then offline']);
    if (info.embedder) rows.push(['Embeddings', info.embedder]);
    rows.push(['Access', info.token_required ? 'token required' : 'this machine only']);
    fill($('#system-info'), ...rows.flatMap(([k, v]) => [h('dt', { text: k }), h('dd', { text: v })]));
  }

  // ---------------------------------------------------------------- live

  // connectLive follows the shown robot's event stream, and the next
  // robot's as soon as another is chosen.
  async function connectLive() {
    for (;;) {
      const robot = state.robot;
      state.live = new AbortController();
      try {
        const res = await request('GET', robotAPI('/events'), undefined, 'text/event-stream', state.live.signal);
        if (!res.ok) throw await failure(res);
        document.body.dataset.live = 'on';
        $('#live').textContent = 'live';
        await readSSE(res, (_, u) => {
          if (state.robot !== robot) return;
          if (u.kind === 'session') renderSession(u.session);
          else if (u.kind === 'event') onTurnEvent(u.turn_id, u.event, false);
          else if (u.kind === 'turn') onTurnDone(u);
          else if (u.kind === 'ended') renderEnded(u.ending);
          else if (u.kind === 'expired' || u.kind === 'dropped') onSkipped(u);
          else if (u.kind === 'interrupted') onInterrupted(u);
        });
      } catch (_) {
        // The server restarted or the network dropped: try again.
      }
      if (state.robot !== robot) continue; // another robot was chosen
      document.body.dataset.live = 'off';
      $('#live').textContent = 'reconnecting…';
      await sleep(2000);
    }
  }

  // ------------------------------------------------------------ actions

  function newTurnID() {
    const b = new Uint8Array(8);
    crypto.getRandomValues(b);
    return 'web-' + Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  }

  async function send(ev) {
    ev.preventDefault();
    const input = $('#utterance');
    const text = input.value.trim();
    if (!text) return;
    const name = $('#user-name').value.trim();
    // The page names the turn, so that its live updates are recognized as
    // this page's from the first one.
    const body = { text, user_emotion: $('#user-emotion').value, turn_id: newTurnID() };
    if (name) body.user_name = name;
    state.mine.add(body.turn_id);
    const button = $('#send');
    button.disabled = true;
    showError('');
    let t = null;
    try {
      const res = await request('POST', robotAPI('/turns?stream=1'), body, 'text/event-stream');
      if (!res.ok) throw await failure(res);
      t = turnCard(body.turn_id, 'mine');
      // The live stream may have shown the whole turn already (a fast
      // turn, a slow page): it is not drawn again without its translation.
      if (!t.done) {
        t.userName = name;
        t.userEmotion = body.user_emotion;
        renderUser(t, text);
      }
      input.value = '';
      let failed = null;
      await readSSE(res, (kind, data) => {
        if (kind === 'event') onTurnEvent(t.id, data, true);
        else if (kind === 'reply') renderReply(t, data);
        else if (kind === 'error') failed = new APIError(0, data);
      });
      if (failed) throw failed;
      loadUsers().catch(() => {});
    } catch (e) {
      showError(e.message);
      if (t && !t.done) t.el.dataset.state = 'failed';
    } finally {
      button.disabled = false;
      input.focus();
    }
  }

  async function setLanguage(ev) {
    state.languageBusy = true;
    showError('');
    try {
      await api('PUT', robotAPI('/language'), { language: ev.target.value });
    } catch (e) {
      showError(e.message);
    } finally {
      state.languageBusy = false;
    }
    try { renderSession(await api('GET', robotAPI('/session'))); } catch (_) { /* live updates will tell */ }
  }

  async function endSession() {
    try {
      await api('POST', robotAPI('/session/end'), {});
    } catch (e) {
      showError(e.message);
    }
  }

  // ------------------------------------------------------------- robots

  // loadRobots lists the robots of the process in the robot picker (shown
  // when there are several) and chooses the one the page's address names
  // (#robot=NAME), else the default.
  async function loadRobots() {
    const { robots } = await api('GET', '/api/robots');
    state.robots = robots || [];
    const wanted = new URLSearchParams(location.hash.slice(1)).get('robot');
    const chosen = state.robots.find((r) => r.name === wanted) || state.robots.find((r) => r.default) || state.robots[0];
    state.robot = chosen ? chosen.name : '';
    const picker = $('#robot');
    fill(picker, ...state.robots.map((r) => h('option', { value: r.name, text: r.name + (r.session && r.session.user &&
      r.session.user.user_id !== 'unknown' ? ' · ' + (r.session.user.user_name || r.session.user.user_id) : '') })));
    picker.value = state.robot;
    $('#robot-picker').hidden = state.robots.length < 2;
    showEngineOf(chosen);
  }

  function showEngineOf(r) {
    if (r && r.engine) renderEngine(r.engine, r.offline);
  }

  // loadRobotView shows the chosen robot's last turns and its session.
  async function loadRobotView() {
    const recent = await api('GET', robotAPI('/turns'));
    for (const u of recent.updates || []) {
      if (u.kind === 'turn') recentTurn(u);
      else if (u.kind === 'ended') renderEnded(u.ending);
    }
    renderSession(await api('GET', robotAPI('/session')));
  }

  // chooseRobot shows another robot: its turns, session, mood and events.
  async function chooseRobot(ev) {
    if (ev.target.value === state.robot) return;
    state.robot = ev.target.value;
    history.replaceState(null, '', '#robot=' + encodeURIComponent(state.robot));
    showEngineOf(state.robots.find((r) => r.name === state.robot));
    state.turns.clear();
    fill($('#turns'));
    $('#empty').hidden = false;
    state.session = null;
    state.mood = [];
    drawPAD();
    showError('');
    document.body.dataset.live = 'off';
    $('#live').textContent = 'connecting…';
    if (state.live) state.live.abort(); // connectLive follows the new robot
    if (document.body.dataset.view === 'today') showToday(true);
    try {
      await loadRobotView();
    } catch (e) {
      showError(e.message);
    }
  }

  // ---------------------------------------------------------------- today

  // The Today view: the day's figures and charts from GET /api/today (the
  // charts are the SVG drawings nadine report puts in its file, parsed as
  // SVG, never as HTML), refreshed every minute while it is shown.
  let todayTimer = null;

  function showToday(on) {
    document.body.dataset.view = on ? 'today' : '';
    $('#today').hidden = !on;
    $('#today-toggle').setAttribute('aria-pressed', on ? 'true' : 'false');
    $('#today-toggle').textContent = on ? 'Conversation' : 'Today';
    const params = new URLSearchParams(location.hash.slice(1));
    if (on) params.set('today', '');
    else params.delete('today');
    history.replaceState(null, '', '#' + params.toString().replace('today=', 'today'));
    clearInterval(todayTimer);
    todayTimer = null;
    if (on) {
      loadToday();
      todayTimer = setInterval(loadToday, 60000);
    }
  }

  async function loadToday() {
    const err = $('#today-error');
    try {
      const q = state.robots.length > 1 && state.robot ? '?robot=' + encodeURIComponent(state.robot) : '';
      const t = await api('GET', '/api/today' + q);
      $('#today-period').textContent = t.period + (q ? ' · ' + state.robot : '');
      $('#today-updated').textContent = 'updated ' + new Date().toLocaleTimeString();
      fill($('#today-figures'), (t.figures || []).map((f) => h('div', {}, h('dt', { text: f.name.trim() }), h('dd', { text: f.value }))));
      const parser = new DOMParser();
      fill($('#today-charts'), (t.charts || []).map((c) => {
        const svg = parser.parseFromString(c.svg, 'image/svg+xml').documentElement;
        return h('figure', { id: 'chart-' + c.id, 'data-chart': c.id },
          h('h3', { text: c.title }), document.importNode(svg, true), h('figcaption', { text: c.caption }));
      }));
      err.hidden = true;
      document.body.dataset.today = 'ready';
    } catch (e) {
      err.textContent = e.message;
      err.hidden = false;
    }
  }

  async function init() {
    $('#today-toggle').addEventListener('click', () => showToday(document.body.dataset.view !== 'today'));
    $('#composer').addEventListener('submit', send);
    $('#language').addEventListener('change', setLanguage);
    $('#end-session').addEventListener('click', endSession);
    $('#robot').addEventListener('change', chooseRobot);
    $('#refresh-users').addEventListener('click', () => loadUsers().catch((e) => showError(e.message)));
    drawPAD();
    try {
      await loadInfo();
      await loadRobots();
      await loadRobotView();
      await loadUsers();
    } catch (e) {
      showError(e.message);
    }
    if (new URLSearchParams(location.hash.slice(1)).has('today')) showToday(true);
    connectLive();
  }

  init();
})();
