"""What is said: the table of sentences the command line and the page both say
(:mod:`~inarow.words.sentences`), the glossary of the page's terms (:mod:`~inarow.words.glossary`), and the
command line's phrases made from the values' fields (:mod:`~inarow.words.phrases`)."""
