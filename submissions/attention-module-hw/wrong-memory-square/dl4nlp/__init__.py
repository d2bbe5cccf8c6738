"""DL4NLP course code: the layers you write live in transformer_layers.py."""
