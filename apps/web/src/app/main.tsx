import '@/app/styles.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { RouterProvider } from 'react-router'
import { AppProviders } from '@/app/providers'
import { router } from '@/app/router'
import { initI18n } from '@/lib/i18n'

const container = document.getElementById('root')
if (!container) throw new Error('index.html must contain #root')

// Render only once the first language's strings are here, so no raw key ever flashes.
void initI18n().then(() => {
  createRoot(container).render(
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  )
})
