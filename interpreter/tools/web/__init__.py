"""`brass serve`, the local web app: the server, its JSON API, the checks every request passes
(`guard`), the threads its engine work runs in (`work`), games and replays kept by id, where games
come from, what the page shows and what a table reads beside the board (`table`: the last action,
score breakdowns, cards played and unseen), and the page itself (`static/`); rooms, one game for several
browsers each with a link of its own (`rooms`, `room_api`), kept in an SQLite file (`store`); the
balance reports of comparison files, as `brass report` draws them (`reports`).

May import: `bots`, `board`, `files`, `wording`, `scenarios`, `trace`, `simulate`.
"""
