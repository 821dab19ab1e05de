/**
 * The arrivals as a table (docs/decisions/117): the chart's figures for screen readers and for anyone
 * who prefers numbers, one row per 5-minute slot, one column per check-in list.
 */
import { useTranslation } from 'react-i18next';
import { type ArrivalsGrid, clockTime } from '../live-door-logic.ts';

export function ArrivalsTable({ grid }: { grid: ArrivalsGrid }) {
  const { t } = useTranslation();
  return (
    // Scrolls sideways when the lists outnumber a phone's width (set inline: see live-door-view.tsx).
    <div style={{ overflowX: 'auto' }}>
      <table className="w-full text-left text-base">
        <caption className="sr-only">{t('live.arrivalsTableCaption')}</caption>
        <thead>
          <tr>
            <th scope="col" className="border-b-2 border-slate-300 p-2">
              {t('live.slot')}
            </th>
            {grid.lists.map((list) => (
              <th key={list.id} scope="col" className="border-b-2 border-slate-300 p-2 text-right">
                {list.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {grid.slots.map((at, slot) => (
            <tr key={at}>
              <th scope="row" className="border-b border-slate-200 p-2 font-normal">
                {clockTime(at)}
              </th>
              {grid.lists.map((list) => (
                <td key={list.id} className="border-b border-slate-200 p-2 text-right tabular-nums">
                  {list.counts[slot]}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
