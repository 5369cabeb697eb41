//! Production entry exports (entry-export-v1): signature check, parsing, D-3 … D-6 tally. (to be written)
