"""``python -m hollywood_gin.arena BOT BOT ...``: the arena without the main command."""

import sys

from .command import main

sys.exit(main())
