"""The base every layer stands on: the error classes (:mod:`~inarow.base.errors`) and the message catalogs
with the current language (:mod:`~inarow.base.i18n`, reading ``inarow/locale/``). Imports nothing of
inarow."""
