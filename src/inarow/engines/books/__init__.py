"""The opening book (a file of exact scores of every early position, built by ``inarow book build``) and
the remembered solutions: what the exact searches consult before searching.

- :mod:`inarow.engines.books.keys`: one key per position up to symmetry;
- :mod:`inarow.engines.books.file`: the book file (:class:`Book`);
- :mod:`inarow.engines.books.build`: building a book on a process pool or on Ray;
- :mod:`inarow.engines.books.recall`: what the searches consult — the books and the remembered solutions.

Importing this package imports nothing else: numpy is loaded with the first book file read.
"""
