import type { ReactNode } from 'react';
import styles from './card-layout.module.css';

/** A page outside the signed-in frame (login, sign-up, phone call): one centred card. */
export function CardLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className={styles.page}>
      <title>{`${title} | LND`}</title>
      <div className={styles.card}>
        <p className={styles.brand}>
          <abbr title="Legal Notice Desk">LND</abbr>
        </p>
        <h1 className={styles.title}>{title}</h1>
        {children}
      </div>
    </main>
  );
}
