export default function PremiosRoute() {
  return (
    <main className="p-6">
      <h1 className="text-2xl font-bold">Prêmios</h1>
      <p className="mt-2 text-slate-700">A tabela de prêmios dos clientes chega em breve.</p>
    </main>
  );
}
