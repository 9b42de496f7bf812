"""The web layer: the JSON API, the pages, who is asking, the language of a request, the probes."""
