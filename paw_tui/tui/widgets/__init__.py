"""The four panes and the widgets they are made of, one module each."""
