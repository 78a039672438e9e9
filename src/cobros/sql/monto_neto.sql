-- An amount without its IGV (docs/cobros.md, "Where each rule lives"): prices include IGV, so the
-- taxable base of p_total at rate p_tasa is round(p_total / (1 + p_tasa), 2), and its IGV is
-- p_total minus that. The one place this rule is written: the bill's base, a sale's net and a
-- dish's price without IGV ask it.
CREATE OR REPLACE FUNCTION monto_neto(p_total numeric, p_tasa numeric)
RETURNS numeric
LANGUAGE sql IMMUTABLE AS $$
  SELECT round(p_total / (1 + p_tasa), 2)
$$;

COMMENT ON FUNCTION monto_neto(numeric, numeric) IS
  'An amount that includes IGV, without it: round(total / (1 + tasa), 2)';
