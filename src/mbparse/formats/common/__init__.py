"""What more than one format reader shares: XML loading with locations
(:mod:`.xml`) and the meaning of Drake's extensions (:mod:`.drake`)."""
