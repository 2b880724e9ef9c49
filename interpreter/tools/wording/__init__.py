"""The game in words for people, shared by the terminal game and the web app: names of tiles,
slots, cards, links and merchants, decisions, answers, refusals and log entries.

May import only the engine and the ruleset layers.
"""
