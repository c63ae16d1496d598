// Evaluated in the page by test_pages.py: pure client modules, checked against the server's Python.
(async () => {
  const { applyPatch, PatchError } = await import('/static/js/patch.js');
  const { sha256hex, fallback } = await import('/static/js/sha256.js');
  const { assignColours } = await import('/static/js/games/slap.js');
  const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  const doc = { room: { seats: [{ n: 1 }, { n: 2 }], "a/b": 0, "m~n": 0 }, game: { legal: [] } };
  const next = applyPatch(doc, [
    { op: 'replace', path: '/room/seats/1/n', value: 5 },
    { op: 'add', path: '/game/legal/-', value: { type: 'slap' } },
    { op: 'replace', path: '/room/a~1b', value: 1 },
    { op: 'remove', path: '/room/m~0n' },
    { op: 'add', path: '/room/seats/0', value: null },
  ]);
  const errors = [];
  for (const ops of [[{ op: 'replace', path: '/nope/x', value: 1 }], [{ op: 'remove', path: '/room/seats/9' }],
                     [{ op: 'move', from: '/a', path: '/b' }], [{ op: 'add', path: '/room/__proto__', value: {} }]]) {
    try { applyPatch(doc, ops); errors.push('applied'); } catch (e) { errors.push(e instanceof PatchError); }
  }
  const texts = ['', 'abc', 'a'.repeat(55), 'b'.repeat(56), 'c'.repeat(64), 'Kø og æbler 🂡', '57c7048d94fae129094974baece8f445'];
  const hashes = [];
  for (const s of texts) hashes.push([await sha256hex(s), hex(fallback(new TextEncoder().encode(s)))]);
  // The connection against a fake socket: seq gap -> one resync, patches ignored until the snapshot,
  // pong with t2/t3, the server's offset, rejects reported, reconnect scheduled with backoff.
  const { RoomConnection } = await import('/static/js/connection.js');
  const sent = [];
  let socket = null;
  class FakeSocket {
    constructor(url) { this.url = url; this.readyState = 0; socket = this; }
    send(text) { sent.push(JSON.parse(text)); }
    close() { this.readyState = 3; }
  }
  FakeSocket.OPEN = 1;
  const RealSocket = window.WebSocket;
  window.WebSocket = FakeSocket;
  const seen = [];
  const states = [];
  const replies = [];
  const conn = new RoomConnection('ABC', 'tok', {
    view: (view, prev, reason) => seen.push([view.room.a, reason]),
    state: (state, info) => states.push([state, Boolean(info.at)]),
    reply: (msg) => replies.push(msg.code),
  });
  conn.start();
  socket.readyState = 1;
  socket.onopen();
  const deliver = (msg) => socket.onmessage({ data: JSON.stringify(msg) });
  deliver({ type: 'welcome', room: 'ABC', player_id: 'p', name: 'Ana', role: 'seat', seat: 0, server_time: 1000 });
  deliver({ type: 'snapshot', seq: 1, reason: 'join', view: { room: { a: 1 }, game: null } });
  deliver({ type: 'patch', seq: 2, ops: [{ op: 'replace', path: '/room/a', value: 2 }] });
  deliver({ type: 'patch', seq: 4, ops: [{ op: 'replace', path: '/room/a', value: 4 }] });
  deliver({ type: 'patch', seq: 5, ops: [{ op: 'replace', path: '/room/a', value: 5 }] });
  deliver({ type: 'snapshot', seq: 6, reason: 'resync', view: { room: { a: 6 }, game: null } });
  deliver({ type: 'patch', seq: 7, ops: [{ op: 'bogus', path: '/room/a' }] });
  deliver({ type: 'snapshot', seq: 8, reason: 'resync', view: { room: { a: 8 }, game: null } });
  deliver({ type: 'ping', id: 3, t: 5000, offset: 123456.5, rtt: 40, jitter: 3 });
  // now() reads performance.now() itself: bracket it, since time moves between the two reads.
  const before = performance.now();
  const reading = conn.now();
  const clock = [reading - performance.now(), reading - before];
  const answer = conn.act({ type: 'nu' });
  const action = sent.find((m) => m.type === 'action');
  deliver({ type: 'reject', id: action.id, code: 'NOT_STARTER', message: 'Only the starter can call Nu!' });
  const reply = await answer;
  socket.onclose({ code: 1006, reason: '' });
  const retry = conn.retryAt - performance.now();
  conn.stop();
  window.WebSocket = RealSocket;
  const pong = sent.find((m) => m.type === 'pong');
  const connection = {
    first: sent[0], seen, states, replies, reply: reply.code, clock, action: action.action,
    resyncs: sent.filter((m) => m.type === 'resync').length, pong: [pong.id, pong.t, typeof pong.t2, typeof pong.t3],
    retry: retry > 0 && retry <= 500,
  };

  // The options form from a JSON schema: $ref enums, "random"-or-seat choices, numbers, booleans, lists.
  const { optionsForm } = await import('/static/js/options-form.js');
  const schema = {
    properties: {
      mode: { $ref: '#/$defs/Mode', default: 'b' },
      seat: { anyOf: [{ const: 'random', type: 'string' }, { type: 'integer', minimum: 0, maximum: 3 }], default: 'random' },
      n: { type: 'integer', minimum: 1, maximum: 9, default: 3 },
      on: { type: 'boolean', default: true },
      pts: { type: 'array', minItems: 2, maxItems: 2, prefixItems: [{ type: 'integer' }, { type: 'integer' }], default: [6, 2] },
    },
    $defs: { Mode: { enum: ['a', 'b'], type: 'string' } },
  };
  const form = optionsForm('x', schema, { n: 5 });
  const formRead = form.read();
  form.write({ seat: 2 });
  const formChanged = form.changed({ mode: 'b', seat: 'random', n: 3, on: true, pts: [6, 2] });
  const formSelects = [...form.el.querySelectorAll('select')].map((sel) => sel.options.length);

  return {
    form: { read: formRead, changed: formChanged, selects: formSelects },
    connection,
    next, unchanged: JSON.stringify(doc), shared: next.game !== doc.game && next.room.seats[1] !== doc.room.seats[1],
    errors, texts, hashes, colours: assignColours(['B', null, 'B', 'y']),
  };
})
