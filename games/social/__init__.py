"""Friends, follows, blocks, mutes and public profiles over the API (issue 35; docs/api.md, "Friends and profiles").

accounts holds the relations (:class:`accounts.models.Relation`, :mod:`accounts.relations`) and knows nothing of
games; this package adds what needs the games app: the endpoints (:mod:`.api`, routes in :mod:`.urls`, included
from games/urls.py), the friends' watchable games and presence and the public profile (:mod:`.service`,
:mod:`.payload`), and the ``followed`` event (:mod:`.events`, connected by ``games.apps``).
"""
