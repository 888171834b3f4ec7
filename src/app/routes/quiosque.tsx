export default function QuiosqueRoute() {
  return (
    <main className="p-6">
      <h1 className="text-2xl font-bold">Quiosque</h1>
      <p className="mt-2 text-slate-700">A tela de autoatendimento do cliente chega em breve.</p>
    </main>
  );
}
