"""The terminal game: `brass play` (people against bots) and `brass replay`.

May import: `bots`, `board`, `files`, `wording`.
"""
