"""Hunter (new World of Darkness): combat rules and the practical experience of a session."""
