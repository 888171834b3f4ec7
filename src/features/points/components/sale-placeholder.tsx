/** The sale column before any customer is found. */
export function SalePlaceholder() {
  return (
    <div className="rounded-lg border border-dashed border-slate-400 bg-white p-6 text-slate-700">
      <h2 className="text-lg font-bold text-slate-900">Lançar pontos</h2>
      <p className="mt-1">
        Busque o cliente pelo celular, CPF ou código para lançar os pontos da compra. Cliente novo?
        Busque pelo celular e cadastre na hora.
      </p>
    </div>
  );
}
