"""What every feature of the page shares: the texts in every language (i18n, locale/), versioned saves in
localStorage (storage), and the JavaScript and CSS beneath every page (morph.js, cards.css, felt.css).

Runs in the engine worker (the Python) and on the page's main thread (the JavaScript and CSS).
Imports only ``durak``; every other folder of ``web`` may import it.
"""
