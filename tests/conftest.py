"""Settings for the whole suite.

The opening book that the first use of a command (and the server) imports into the user's data folder is
not imported on its own during the tests: it would cost each test process some fifteen seconds and write
outside the test's folders. ``tests/test_book.py`` turns it back on where it tests it, in a folder of its
own.
"""

import os

from inarow.engines.books.recall import IMPORT_VARIABLE

os.environ[IMPORT_VARIABLE] = "off"  # before any test starts a server or a command in a process of its own
