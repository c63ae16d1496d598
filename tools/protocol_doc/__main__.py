"""``python -m tools.protocol_doc [--check]``."""

from tools.protocol_doc import main

raise SystemExit(main())
