"""How a run of turpin starts: where the app opens (``start``) and opening it there (``launch``), what the
environment sets for the run (``settings``), and the warm pool's zygote that forks a door's guests from an
app loaded once (``zygote``)."""
