"""Competition (issue 32): skill ratings from ranked games."""
