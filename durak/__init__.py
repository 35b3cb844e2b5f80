"""Durak rules engine: Podkidnoy, Perevodnoy and Prostoy, standard library only.

The API (views, events, the AI interface) is described in docs/api.md.
"""
