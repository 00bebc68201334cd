"""Reading a message: what a mail says, whoever sent it and whatever it is for.

Pure: no database, no Flask. ``parse.parse_message`` turns raw bytes into a
``ParsedMessage`` (its author, its token, the commands of its body), from the
body's text (``parse_body``, with HTML turned into text within a time budget,
``html_budget``), the kind of mail it is (``parse_classify``), the history a reply
quotes (``parse_reply``), a forwarded player's mail (``parse_forward``) and the From
field as the receiving server checked it (``author``). ``commands`` reads the lines
of commands themselves, for mail and for the Masters' paste box alike, with the game's
vocabulary compiled by ``grammar`` (its words by their stems: ``stems``), a command's
arguments read by ``arguments``, the places a command starts as people write it found by
``natural``, corrections by ``corrections``, and the players' names read by ``names``
(their forms: ``name_forms``; folded by ``folding``); ``wording`` describes its errors
and gives example lines, in the reader's language. One rule throughout: a wrong command
is worse than none, so where a careful Master would hesitate, nothing is recorded and
the error says so (``unsure``, ``correction``, ``ambiguous_name``, ``question``).
"""
