"""The base every layer stands on: the error classes (:mod:`~inarow.base.errors`), the message catalogs
with the current language (:mod:`~inarow.base.i18n`, reading ``inarow/locale/``) and the process pools
(:mod:`~inarow.base.processes`). Imports nothing of inarow."""
