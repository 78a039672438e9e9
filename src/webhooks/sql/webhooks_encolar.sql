-- One outbox message (docs/webhooks.md) per active endpoint subscribed to p_tipo, with the thin
-- body {type, timestamp, data}; p_clave makes it once per change (a retry writes nothing new).
CREATE OR REPLACE FUNCTION webhooks_encolar(p_tipo text, p_fec timestamptz, p_data jsonb, p_clave text)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO webhook_mensajes (id_webhook, tipo, clave, cuerpo)
  SELECT s.id_webhook, p_tipo, p_clave,
         json_build_object(
           'type', p_tipo,
           'timestamp', to_char(p_fec AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
           'data', p_data)::text
    FROM webhooks_suscritos(p_tipo) s;
END
$$;

COMMENT ON FUNCTION webhooks_encolar(text, timestamptz, jsonb, text) IS
  'Writes the outbox messages of one event for its subscribed active endpoints';
