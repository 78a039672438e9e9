/**
 * The demo restaurant, a Lima-style cevichería: what it sells, uses and buys, its staff, its
 * customers and its tables. Fixed definitions only: the sections of the seed (sections/*.ts)
 * turn them into rows, and the generator draws everything else (documentos, phones, dates,
 * tickets, purchases, punches).
 *
 * A definition's key in the database is its 1-based position in its list.
 */

// ---------------------------------------------------------------------------------------------
// Catalog: what the restaurant sells, uses and buys
// ---------------------------------------------------------------------------------------------

type Unidad = 'kg' | 'g' | 'l' | 'ml' | 'unidad';

interface MateriaDef {
  nombre: string;
  unidad: Unidad;
  /** Usual purchase quantity range, in whole units of `unidad`. */
  lote: [number, number];
}

export const MATERIAS: readonly MateriaDef[] = [
  { nombre: 'Pescado fresco (corvina)', unidad: 'kg', lote: [8, 25] },
  { nombre: 'Limón sutil', unidad: 'kg', lote: [10, 30] },
  { nombre: 'Cebolla roja', unidad: 'kg', lote: [8, 20] },
  { nombre: 'Ají limo', unidad: 'kg', lote: [1, 3] },
  { nombre: 'Ají amarillo', unidad: 'kg', lote: [2, 6] },
  { nombre: 'Culantro', unidad: 'kg', lote: [1, 3] },
  { nombre: 'Camote', unidad: 'kg', lote: [8, 20] },
  { nombre: 'Choclo desgranado', unidad: 'kg', lote: [5, 12] },
  { nombre: 'Mariscos surtidos', unidad: 'kg', lote: [5, 15] },
  { nombre: 'Langostinos', unidad: 'kg', lote: [2, 6] },
  { nombre: 'Calamar', unidad: 'kg', lote: [4, 10] },
  { nombre: 'Conchas negras', unidad: 'unidad', lote: [100, 300] },
  { nombre: 'Camarones de río', unidad: 'kg', lote: [2, 5] },
  { nombre: 'Papa amarilla', unidad: 'kg', lote: [10, 25] },
  { nombre: 'Papa blanca', unidad: 'kg', lote: [10, 30] },
  { nombre: 'Pollo', unidad: 'kg', lote: [8, 20] },
  { nombre: 'Lomo fino de res', unidad: 'kg', lote: [4, 10] },
  { nombre: 'Carne de res para guiso', unidad: 'kg', lote: [4, 10] },
  { nombre: 'Corazón de res', unidad: 'kg', lote: [3, 8] },
  { nombre: 'Pato', unidad: 'kg', lote: [4, 10] },
  { nombre: 'Arroz extra', unidad: 'kg', lote: [25, 50] },
  { nombre: 'Frejol canario', unidad: 'kg', lote: [5, 15] },
  { nombre: 'Yuca', unidad: 'kg', lote: [8, 20] },
  { nombre: 'Tomate', unidad: 'kg', lote: [5, 15] },
  { nombre: 'Ajo', unidad: 'kg', lote: [1, 3] },
  { nombre: 'Aceite vegetal', unidad: 'l', lote: [10, 20] },
  { nombre: 'Leche evaporada', unidad: 'l', lote: [6, 18] },
  { nombre: 'Queso fresco', unidad: 'kg', lote: [2, 6] },
  { nombre: 'Huevo', unidad: 'unidad', lote: [90, 180] },
  { nombre: 'Maíz morado', unidad: 'kg', lote: [5, 15] },
  { nombre: 'Azúcar rubia', unidad: 'kg', lote: [10, 25] },
  { nombre: 'Pisco quebranta', unidad: 'l', lote: [3, 9] },
  { nombre: 'Harina de trigo', unidad: 'kg', lote: [5, 15] },
  { nombre: 'Zapallo macre', unidad: 'kg', lote: [4, 10] },
  { nombre: 'Chancaca', unidad: 'kg', lote: [2, 5] },
  { nombre: 'Canela y clavo de olor', unidad: 'g', lote: [200, 500] },
  { nombre: 'Esencia de vainilla', unidad: 'ml', lote: [250, 1000] },
];

export const CATEGORIAS: readonly { nombre: string; descripcion: string }[] = [
  { nombre: 'Ceviches y tiraditos', descripcion: 'Pescados y mariscos marinados en limón' },
  { nombre: 'Entradas', descripcion: 'Piqueos fríos y calientes para compartir' },
  { nombre: 'Platos criollos', descripcion: 'Fondos de la cocina criolla limeña' },
  { nombre: 'Arroces y chaufas', descripcion: 'Arroces marinos y criollos' },
  { nombre: 'Sopas y chupes', descripcion: 'Sopas, chupes y parihuelas' },
  { nombre: 'Postres', descripcion: 'Postres limeños de la casa' },
  { nombre: 'Bebidas', descripcion: 'Refrescos de la casa, cócteles y bebidas embotelladas' },
];

interface ProductoDef {
  nombre: string;
  categoria: string;
  /** Sale price in céntimos. */
  precio: number;
  /** Relative popularity when the demo picks dishes for a ticket. */
  peso: number;
  /** Raw material and quantity per portion, in thousandths of the material's unidad. */
  receta: readonly (readonly [string, number])[];
}

export const PRODUCTOS: readonly ProductoDef[] = [
  {
    nombre: 'Ceviche clásico',
    categoria: 'Ceviches y tiraditos',
    precio: 3800,
    peso: 10,
    receta: [
      ['Pescado fresco (corvina)', 220],
      ['Limón sutil', 150],
      ['Cebolla roja', 80],
      ['Ají limo', 10],
      ['Camote', 150],
    ],
  },
  {
    nombre: 'Ceviche mixto',
    categoria: 'Ceviches y tiraditos',
    precio: 4500,
    peso: 7,
    receta: [
      ['Pescado fresco (corvina)', 150],
      ['Mariscos surtidos', 120],
      ['Limón sutil', 150],
      ['Cebolla roja', 80],
      ['Choclo desgranado', 80],
    ],
  },
  {
    nombre: 'Ceviche de conchas negras',
    categoria: 'Ceviches y tiraditos',
    precio: 4800,
    peso: 2,
    receta: [
      ['Conchas negras', 12000],
      ['Limón sutil', 120],
      ['Cebolla roja', 60],
      ['Ají limo', 10],
    ],
  },
  {
    nombre: 'Tiradito al ají amarillo',
    categoria: 'Ceviches y tiraditos',
    precio: 3600,
    peso: 4,
    receta: [
      ['Pescado fresco (corvina)', 200],
      ['Limón sutil', 120],
      ['Ají amarillo', 60],
      ['Culantro', 5],
    ],
  },
  {
    nombre: 'Leche de tigre',
    categoria: 'Ceviches y tiraditos',
    precio: 2200,
    peso: 5,
    receta: [
      ['Pescado fresco (corvina)', 80],
      ['Limón sutil', 100],
      ['Ají limo', 10],
      ['Calamar', 40],
    ],
  },
  {
    nombre: 'Causa limeña de pollo',
    categoria: 'Entradas',
    precio: 2200,
    peso: 4,
    receta: [
      ['Papa amarilla', 250],
      ['Pollo', 100],
      ['Limón sutil', 30],
      ['Ají amarillo', 30],
    ],
  },
  {
    nombre: 'Papa a la huancaína',
    categoria: 'Entradas',
    precio: 1800,
    peso: 4,
    receta: [
      ['Papa blanca', 250],
      ['Queso fresco', 80],
      ['Leche evaporada', 80],
      ['Ají amarillo', 40],
      ['Huevo', 1000],
    ],
  },
  {
    nombre: 'Choritos a la chalaca',
    categoria: 'Entradas',
    precio: 2400,
    peso: 3,
    receta: [
      ['Mariscos surtidos', 200],
      ['Cebolla roja', 60],
      ['Tomate', 60],
      ['Limón sutil', 60],
      ['Choclo desgranado', 50],
    ],
  },
  {
    nombre: 'Anticuchos de corazón',
    categoria: 'Entradas',
    precio: 2600,
    peso: 4,
    receta: [
      ['Corazón de res', 250],
      ['Ajo', 10],
      ['Papa blanca', 150],
      ['Aceite vegetal', 20],
    ],
  },
  {
    nombre: 'Chicharrón de calamar',
    categoria: 'Entradas',
    precio: 3400,
    peso: 4,
    receta: [
      ['Calamar', 250],
      ['Harina de trigo', 50],
      ['Aceite vegetal', 150],
      ['Yuca', 150],
      ['Limón sutil', 30],
    ],
  },
  {
    nombre: 'Lomo saltado',
    categoria: 'Platos criollos',
    precio: 4200,
    peso: 8,
    receta: [
      ['Lomo fino de res', 200],
      ['Cebolla roja', 100],
      ['Tomate', 100],
      ['Papa blanca', 200],
      ['Arroz extra', 150],
    ],
  },
  {
    nombre: 'Ají de gallina',
    categoria: 'Platos criollos',
    precio: 3200,
    peso: 5,
    receta: [
      ['Pollo', 180],
      ['Ají amarillo', 50],
      ['Leche evaporada', 100],
      ['Papa amarilla', 150],
      ['Arroz extra', 150],
    ],
  },
  {
    nombre: 'Seco de res con frejoles',
    categoria: 'Platos criollos',
    precio: 3800,
    peso: 4,
    receta: [
      ['Carne de res para guiso', 250],
      ['Culantro', 15],
      ['Frejol canario', 100],
      ['Arroz extra', 150],
    ],
  },
  {
    nombre: 'Tacu tacu con bistec',
    categoria: 'Platos criollos',
    precio: 4000,
    peso: 3,
    receta: [
      ['Carne de res para guiso', 200],
      ['Frejol canario', 120],
      ['Arroz extra', 150],
      ['Huevo', 1000],
      ['Aceite vegetal', 30],
    ],
  },
  {
    nombre: 'Jalea mixta',
    categoria: 'Platos criollos',
    precio: 5200,
    peso: 5,
    receta: [
      ['Pescado fresco (corvina)', 200],
      ['Mariscos surtidos', 150],
      ['Calamar', 100],
      ['Yuca', 200],
      ['Harina de trigo', 80],
    ],
  },
  {
    nombre: 'Pescado a lo macho',
    categoria: 'Platos criollos',
    precio: 4800,
    peso: 3,
    receta: [
      ['Pescado fresco (corvina)', 250],
      ['Mariscos surtidos', 150],
      ['Ají amarillo', 40],
      ['Arroz extra', 150],
    ],
  },
  {
    nombre: 'Arroz con mariscos',
    categoria: 'Arroces y chaufas',
    precio: 4400,
    peso: 6,
    receta: [
      ['Arroz extra', 180],
      ['Mariscos surtidos', 200],
      ['Langostinos', 60],
      ['Ají amarillo', 30],
      ['Ajo', 10],
    ],
  },
  {
    nombre: 'Chaufa de mariscos',
    categoria: 'Arroces y chaufas',
    precio: 4000,
    peso: 4,
    receta: [
      ['Arroz extra', 200],
      ['Mariscos surtidos', 150],
      ['Huevo', 1000],
      ['Aceite vegetal', 30],
    ],
  },
  {
    nombre: 'Arroz con pato',
    categoria: 'Arroces y chaufas',
    precio: 4600,
    peso: 3,
    receta: [
      ['Pato', 350],
      ['Arroz extra', 180],
      ['Culantro', 20],
      ['Ají amarillo', 30],
    ],
  },
  {
    nombre: 'Chupe de camarones',
    categoria: 'Sopas y chupes',
    precio: 5200,
    peso: 3,
    receta: [
      ['Camarones de río', 200],
      ['Papa amarilla', 150],
      ['Leche evaporada', 100],
      ['Huevo', 1000],
      ['Queso fresco', 50],
    ],
  },
  {
    nombre: 'Parihuela',
    categoria: 'Sopas y chupes',
    precio: 5000,
    peso: 3,
    receta: [
      ['Pescado fresco (corvina)', 150],
      ['Mariscos surtidos', 200],
      ['Tomate', 100],
      ['Ajo', 10],
    ],
  },
  {
    nombre: 'Aguadito de pollo',
    categoria: 'Sopas y chupes',
    precio: 2400,
    peso: 3,
    receta: [
      ['Pollo', 200],
      ['Arroz extra', 80],
      ['Culantro', 25],
      ['Choclo desgranado', 50],
    ],
  },
  {
    nombre: 'Suspiro a la limeña',
    categoria: 'Postres',
    precio: 1400,
    peso: 3,
    receta: [
      ['Leche evaporada', 200],
      ['Huevo', 2000],
      ['Azúcar rubia', 80],
      ['Esencia de vainilla', 2000],
    ],
  },
  {
    nombre: 'Mazamorra morada',
    categoria: 'Postres',
    precio: 1000,
    peso: 2,
    receta: [
      ['Maíz morado', 80],
      ['Azúcar rubia', 50],
      ['Canela y clavo de olor', 2000],
      ['Harina de trigo', 20],
    ],
  },
  {
    nombre: 'Arroz con leche',
    categoria: 'Postres',
    precio: 1000,
    peso: 2,
    receta: [
      ['Arroz extra', 60],
      ['Leche evaporada', 150],
      ['Azúcar rubia', 50],
      ['Canela y clavo de olor', 2000],
    ],
  },
  {
    nombre: 'Picarones',
    categoria: 'Postres',
    precio: 1600,
    peso: 3,
    receta: [
      ['Zapallo macre', 100],
      ['Camote', 100],
      ['Harina de trigo', 120],
      ['Chancaca', 80],
      ['Aceite vegetal', 100],
    ],
  },
  {
    nombre: 'Chicha morada (jarra 1 l)',
    categoria: 'Bebidas',
    precio: 1800,
    peso: 6,
    receta: [
      ['Maíz morado', 150],
      ['Azúcar rubia', 100],
      ['Limón sutil', 40],
      ['Canela y clavo de olor', 3000],
    ],
  },
  {
    nombre: 'Limonada frozen',
    categoria: 'Bebidas',
    precio: 1200,
    peso: 5,
    receta: [
      ['Limón sutil', 120],
      ['Azúcar rubia', 60],
    ],
  },
  {
    nombre: 'Pisco sour',
    categoria: 'Bebidas',
    precio: 2400,
    peso: 5,
    receta: [
      ['Pisco quebranta', 90],
      ['Limón sutil', 40],
      ['Azúcar rubia', 30],
      ['Huevo', 1000],
    ],
  },
  {
    nombre: 'Chilcano de pisco',
    categoria: 'Bebidas',
    precio: 2200,
    peso: 3,
    receta: [
      ['Pisco quebranta', 60],
      ['Limón sutil', 30],
    ],
  },
  // Bottled drinks are bought ready-made (prov_producto, deta_comp_producto): no recipe.
  {
    nombre: 'Gaseosa personal 500 ml',
    categoria: 'Bebidas',
    precio: 700,
    peso: 6,
    receta: [],
  },
  { nombre: 'Cerveza rubia 620 ml', categoria: 'Bebidas', precio: 1400, peso: 5, receta: [] },
  {
    nombre: 'Agua mineral sin gas 625 ml',
    categoria: 'Bebidas',
    precio: 500,
    peso: 3,
    receta: [],
  },
  {
    nombre: 'Agua mineral con gas 625 ml',
    categoria: 'Bebidas',
    precio: 600,
    peso: 1,
    receta: [],
  },
];

interface ProveedorDef {
  razonSocial: string;
  telefono: string;
  email: string;
  direccion: string;
  /** Relative share of the purchases. */
  peso: number;
  /** Raw material and agreed price per unidad, in céntimos. */
  materias: readonly (readonly [string, number])[];
  /** Resold product and agreed price per unit, in céntimos. */
  productos: readonly (readonly [string, number])[];
}

export const PROVEEDORES: readonly ProveedorDef[] = [
  {
    razonSocial: 'Pesquera Virgen del Carmen S.A.C.',
    telefono: '014502318',
    email: 'ventas@pesqueravirgendelcarmen.example',
    direccion: 'Terminal Pesquero de Villa María del Triunfo, puesto 48, Lima',
    peso: 10,
    materias: [
      ['Pescado fresco (corvina)', 4200],
      ['Mariscos surtidos', 3600],
      ['Langostinos', 4800],
      ['Calamar', 2200],
      ['Conchas negras', 150],
      ['Camarones de río', 11000],
    ],
    productos: [],
  },
  {
    razonSocial: 'Distribuidora Agrícola Santa Anita E.I.R.L.',
    telefono: '013627745',
    email: 'pedidos@agricolasantaanita.example',
    direccion: 'Mercado Mayorista de Santa Anita, pabellón B, puesto 112, Lima',
    peso: 9,
    materias: [
      ['Limón sutil', 850],
      ['Cebolla roja', 320],
      ['Ají limo', 1200],
      ['Ají amarillo', 900],
      ['Culantro', 800],
      ['Camote', 250],
      ['Choclo desgranado', 600],
      ['Papa amarilla', 450],
      ['Papa blanca', 220],
      ['Yuca', 280],
      ['Tomate', 350],
      ['Ajo', 900],
      ['Frejol canario', 850],
      ['Maíz morado', 550],
      ['Zapallo macre', 240],
      ['Arroz extra', 400],
    ],
    productos: [],
  },
  {
    razonSocial: 'Carnes y Aves La Victoria S.A.C.',
    telefono: '014319082',
    email: 'atencion@carneslavictoria.example',
    direccion: 'Jr. Hipólito Unanue 1245, La Victoria, Lima',
    peso: 5,
    materias: [
      ['Pollo', 1300],
      ['Lomo fino de res', 6500],
      ['Carne de res para guiso', 3200],
      ['Corazón de res', 1800],
      ['Pato', 2800],
      ['Huevo', 55],
    ],
    productos: [],
  },
  {
    razonSocial: 'Comercial Abarrotes Lima Norte S.A.',
    telefono: '015287360',
    email: 'ventas@abarroteslimanorte.example',
    direccion: 'Av. Alfredo Mendiola 3580, Los Olivos, Lima',
    peso: 6,
    materias: [
      ['Arroz extra', 420],
      ['Aceite vegetal', 890],
      ['Leche evaporada', 780],
      ['Queso fresco', 2200],
      ['Huevo', 60],
      ['Azúcar rubia', 380],
      ['Pisco quebranta', 3800],
      ['Harina de trigo', 360],
      ['Chancaca', 700],
      ['Canela y clavo de olor', 12],
      ['Esencia de vainilla', 5],
    ],
    productos: [
      ['Gaseosa personal 500 ml', 210],
      ['Cerveza rubia 620 ml', 620],
      ['Agua mineral sin gas 625 ml', 110],
      ['Agua mineral con gas 625 ml', 130],
    ],
  },
];

// ---------------------------------------------------------------------------------------------
// Staff
// ---------------------------------------------------------------------------------------------

export const ROLES: readonly { nombre: Rol; descripcion: string }[] = [
  { nombre: 'admin', descripcion: 'Administración: configuración, anulaciones y reportes' },
  { nombre: 'cajero', descripcion: 'Caja: cierre y cobro de comandas' },
  { nombre: 'mozo', descripcion: 'Salón: toma de pedidos y atención de mesas' },
  { nombre: 'cocina', descripcion: 'Cocina: preparación de los pedidos' },
];

type Rol = 'admin' | 'cajero' | 'mozo' | 'cocina';

interface StaffDef {
  nombre: string;
  apellido: string;
  roles: readonly Rol[];
  /** Shift segments in minutes after midnight of the work day; an end past 1440 crosses midnight. */
  turno: readonly (readonly [number, number])[];
  /** Weekly rest day, 0 = Sunday. */
  descanso: number;
}

export const STAFF: readonly StaffDef[] = [
  {
    nombre: 'Carmen Rosa',
    apellido: 'Salazar Vega',
    roles: ['admin', 'cajero'],
    turno: [[540, 1080]],
    descanso: 0,
  },
  {
    nombre: 'Luis Alberto',
    apellido: 'Quispe Mamani',
    roles: ['cajero'],
    turno: [[660, 1140]],
    descanso: 1,
  },
  {
    nombre: 'Milagros',
    apellido: 'Huamán Torres',
    roles: ['cajero'],
    turno: [[1080, 1530]],
    descanso: 2,
  },
  {
    nombre: 'Jorge Luis',
    apellido: 'Rojas Chávez',
    roles: ['mozo'],
    turno: [
      [690, 960],
      [1140, 1410],
    ],
    descanso: 1,
  },
  {
    nombre: 'Diana',
    apellido: 'Flores Paredes',
    roles: ['mozo'],
    turno: [[660, 1140]],
    descanso: 3,
  },
  {
    nombre: 'Kevin',
    apellido: 'Ramírez Soto',
    roles: ['mozo'],
    turno: [[1080, 1530]],
    descanso: 4,
  },
  {
    nombre: 'Wilmer',
    apellido: 'Condori Apaza',
    roles: ['cocina'],
    turno: [[540, 1020]],
    descanso: 1,
  },
  {
    nombre: 'Rosa Elvira',
    apellido: 'Mendoza Cárdenas',
    roles: ['cocina'],
    turno: [
      [600, 930],
      [1080, 1380],
    ],
    descanso: 2,
  },
];

/** Staff ids (1-based positions in STAFF) by job. */
export const ADMIN = 1;
export const CAJERO_DIA = 2;
export const CAJERO_NOCHE = 3;
export const MOZOS_ALMUERZO = [4, 5];
export const MOZOS_CENA = [4, 6];
export const COCINA = 7;

/** (staff id, days before today) whose out-punch is missing: open interval, day incompleto. */
export const SIN_SALIDA: readonly (readonly [number, number])[] = [
  [6, 1],
  [5, 12],
];

// ---------------------------------------------------------------------------------------------
// Customers, tables and what is written on tickets
// ---------------------------------------------------------------------------------------------

export const CLIENTES: readonly {
  nombre: string;
  apellido: string | null;
  doc: 'dni' | 'ruc' | null;
  direccion: string | null;
}[] = [
  {
    nombre: 'Ana María',
    apellido: 'Gutiérrez Ríos',
    doc: 'dni',
    direccion: 'Av. Larco 345, Miraflores',
  },
  { nombre: 'José Antonio', apellido: 'Vargas Pinto', doc: 'dni', direccion: null },
  {
    nombre: 'Lucía',
    apellido: 'Fernández Castillo',
    doc: 'dni',
    direccion: 'Calle Los Laureles 120, San Isidro',
  },
  { nombre: 'Miguel Ángel', apellido: 'Torres Huanca', doc: 'dni', direccion: null },
  { nombre: 'Patricia', apellido: 'Sánchez León', doc: null, direccion: null },
  {
    nombre: 'Ricardo',
    apellido: 'Palacios Díaz',
    doc: 'dni',
    direccion: 'Av. Brasil 1840, Pueblo Libre',
  },
  { nombre: 'Elena', apellido: 'Chumpitaz Ramos', doc: 'dni', direccion: null },
  {
    nombre: 'Fernando',
    apellido: 'Aguilar Medina',
    doc: 'dni',
    direccion: 'Jr. Junín 512, Cercado de Lima',
  },
  { nombre: 'Sofía', apellido: 'Benavides Ortiz', doc: null, direccion: null },
  { nombre: 'Giancarlo', apellido: 'Rossi Valdivia', doc: 'dni', direccion: null },
  {
    nombre: 'Inversiones Costa Verde S.A.C.',
    apellido: null,
    doc: 'ruc',
    direccion: 'Av. José Pardo 601, oficina 804, Miraflores',
  },
  {
    nombre: 'Constructora Los Pinos S.R.L.',
    apellido: null,
    doc: 'ruc',
    direccion: 'Av. Javier Prado Este 2465, San Borja',
  },
];

/** Tables of the dining room: 1-8 in the Salón, 9-12 on the Terraza. */
export const MESAS = 12;

export const OBSERVACIONES = [
  'Cumpleaños: llevar el postre con vela',
  'Cliente frecuente',
  'Paga con tarjeta',
  'Solicita factura',
  'Cliente alérgico al maní',
  'Mesa con niños: traer sillita',
];
export const NOTAS = [
  'Sin cebolla',
  'Bien picante',
  'Poco ají',
  'Sin culantro',
  'Término medio',
  'Para compartir',
  'Bien helada',
];
export const MOTIVOS_ELIMINACION = [
  'Cliente se retiró antes de ser atendido',
  'Comanda duplicada por error',
  'Error de digitación: se registró en otra mesa',
  'Pedido anulado por demora en cocina',
  'Cortesía autorizada por administración',
];

// ---------------------------------------------------------------------------------------------
// Keys by name
// ---------------------------------------------------------------------------------------------

export const materiaId = new Map(MATERIAS.map((m, i) => [m.nombre, i + 1]));
export const productoId = new Map(PRODUCTOS.map((p, i) => [p.nombre, i + 1]));
export const categoriaId = new Map(CATEGORIAS.map((c, i) => [c.nombre, i + 1]));
export const rolId = new Map(ROLES.map((r, i) => [r.nombre, i + 1]));
