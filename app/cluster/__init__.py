"""Several server processes serving the same rooms, coordinated through Redis (off by default).

Each room stays a single-owner actor: :mod:`app.cluster.leases` gives one process at a time the
right to load it (with a fencing number the database checks on every event-log append), and
:mod:`app.cluster.relay` carries a request or WebSocket that reached another process to the
owner over Redis pub/sub, so that clients see the same protocol whichever process they reach.
:mod:`app.cluster.node` ties them to one process. Nothing here runs without ``BORDET_REDIS_URL``.
"""
