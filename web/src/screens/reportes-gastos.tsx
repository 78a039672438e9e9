import { useMemo } from 'preact/hooks';
import { COLORES } from '../chart';
import { personName } from './attendance-format';
import {
  ejeTiempo,
  etiquetaCorta,
  type ReporteAsistencia,
  type ReporteGastos,
} from './reportes-rules';
import { type Carga, ChartCard, type Datos, Grafico } from './reportes-card';

/** Sales against purchases, month by month. */
export function GastosCard({
  carga,
  onCsv,
}: {
  carga: Carga<ReporteGastos>;
  onCsv: () => Promise<void>;
}) {
  const titulo = 'Ventas y gastos por mes';
  const datos = useMemo<Datos | null>(
    () =>
      carga.data && {
        columna: 'Mes',
        etiquetas: carga.data.filas.map((f) => f.etiqueta),
        ejes: carga.data.filas.map((f) => ejeTiempo(f.clave, 'mes')),
        series: [
          {
            nombre: 'Ventas',
            valores: carga.data.filas.map((f) => f.ventas),
            unidad: 'soles',
            color: COLORES.verde,
          },
          {
            nombre: 'Gastos',
            valores: carga.data.filas.map((f) => f.gastos),
            unidad: 'soles',
            color: COLORES.naranja,
          },
        ],
      },
    [carga.data],
  );
  return (
    <ChartCard
      id="gastos"
      titulo={titulo}
      nota="Gastos: las compras registradas en el mes"
      carga={carga}
      vacio={(r) =>
        r.filas.some((f) => f.ventas !== 0 || f.gastos !== 0)
          ? null
          : 'Sin ventas ni compras en este periodo'
      }
      onCsv={onCsv}
    >
      {() => datos && <Grafico titulo={titulo} datos={datos} tipo="bar" height={240} />}
    </ChartCard>
  );
}

/** Hours worked by each person with punches in the period. */
export function AsistenciaCard({
  carga,
  onCsv,
  wide,
}: {
  carga: Carga<ReporteAsistencia>;
  onCsv: () => Promise<void>;
  wide: boolean;
}) {
  const titulo = 'Horas trabajadas';
  const datos = useMemo<Datos | null>(() => {
    if (!carga.data) return null;
    const filas = carga.data.filas;
    return {
      columna: 'Persona',
      etiquetas: filas.map((f) => personName(f)),
      ejes: filas.map((f) => etiquetaCorta(personName(f))),
      series: [
        {
          nombre: 'Horas',
          valores: filas.map((f) => f.horas),
          unidad: 'horas',
          color: COLORES.azul,
        },
      ],
    };
  }, [carga.data]);
  return (
    <ChartCard
      id="asistencia"
      titulo={titulo}
      nota="Según las marcaciones: solo cuentan los intervalos con entrada y salida"
      carga={carga}
      vacio={(r) => (r.filas.length > 0 ? null : 'Sin marcaciones en este periodo')}
      onCsv={onCsv}
      wide={wide}
    >
      {() =>
        datos && (
          <Grafico
            titulo={titulo}
            datos={datos}
            tipo="bar"
            horizontal
            height={Math.max(160, datos.etiquetas.length * 34 + 40)}
          />
        )
      }
    </ChartCard>
  );
}
