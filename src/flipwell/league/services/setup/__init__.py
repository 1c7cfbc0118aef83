"""Setting a league up: who may open one (`league_openers`), its machine pool (`machine_pool`)
and its officials (`officials`); each module's docstring defines its words."""
