"""`brass serve`, the local web app: the server, its JSON API, the checks every request passes
(`guard`), the threads its engine work runs in (`work`), games and replays kept by id, where games
come from, what the page shows, and the page itself (`static/`).

May import: `bots`, `board`, `files`, `wording`, `scenarios`, `trace`.
"""
